import AASAFileCommands
import AASAProbe
import AASASystem
import AASATransport
import ArgumentParser
import AssociationKit
import Foundation
@preconcurrency import Glibc

/// `aasa-server probe [--cacert FILE] [--connect-to HOST:PORT] [--cdn] [--google [--google-url URL]
/// [--google-ca FILE]] [--json] URL-or-DOMAIN...`
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Check a live deployment as Apple's CDN and Android's verifier fetch it.",
        discussion: """
            For each domain: TCP and TLS, the certificate for the name, then \
            /.well-known/apple-app-site-association, /apple-app-site-association and \
            /.well-known/assetlinks.json over HTTPS: status 200 with no redirect, content type, \
            size, validity, both Apple paths alike, and an unusual User-Agent answered the same. \
            With --cdn, Apple's CDN copy; with --google, Google's Digital Asset Links view. For a URL \
            with a path: which app opens it on iOS and Android, by each file, and why not. \
            Exit 0 when nothing fails, 1 when something does, 2 for a usage error.
            """)

    @Option(help: "Trust this CA certificate (PEM) instead of the system store.")
    var cacert: String?

    @Option(
        name: .customLong("connect-to"),
        help: "Dial HOST:PORT while sending the domain as SNI and Host (a staging host before DNS).")
    var connectTo: String?

    @Flag(help: "Also fetch Apple's CDN copy and compare it with the origin's.")
    var cdn = false

    @Flag(help: "Also ask Google's Digital Asset Links API and compare its view with the origin's assetlinks.json.")
    var google = false

    @Option(name: .customLong("google-url"), help: "Google's statements:list URL (a stand-in, tests).")
    var googleURL = GoogleListResponse.defaultURL

    @Option(name: .customLong("google-ca"), help: "A PEM CA trusted for --google-url besides the system's.")
    var googleCA: String?

    @Option(help: "Seconds allowed for each step (connect, handshake, response).")
    var timeout: Double = 5

    @Flag(help: "Print one JSON document.")
    var json = false

    @Argument(help: "Domains or https:// URLs.")
    var targets: [String] = []

    func validate() throws {
        if targets.isEmpty { throw ValidationError("give at least one domain or URL") }
        if let connectTo, Self.parseHostPort(connectTo) == nil { throw ValidationError("--connect-to takes HOST:PORT") }
        if HTTPSURL(googleURL) == nil { throw ValidationError("--google-url takes an https:// URL") }
        // Written so that NaN fails too: every comparison with NaN is false.
        if !(timeout > 0 && timeout <= 120) { throw ValidationError("--timeout must be between 0 and 120 seconds") }
    }

    func run() throws {
        // OpenSSL writes through the socket; a server that closes early must not kill us.
        try? Posix.ignore(signal: SIGPIPE)
        let prober = Prober(
            client: HTTPSClient(caFile: cacert, timeout: timeout), connectTo: connectTo.flatMap(Self.parseHostPort),
            checkCDN: cdn,
            google: google
                ? Prober.GoogleQuestion(
                    url: googleURL, client: HTTPSClient(caFile: googleCA, timeout: timeout, systemTrust: true)) : nil)
        let reports = targets.map(prober.probe)
        StandardStreams.write(
            json
                ? ChecklistOutput.json(reports, list: "domains", subject: "domain", item: "name")
                : ChecklistOutput.text(reports))
        if reports.contains(where: \.failed) { throw CommandFailure.invalid }
    }

    /// `HOST:PORT` (an IPv6 host in brackets), split by `URLParts` as every authority is.
    static func parseHostPort(_ text: String) -> (String, Int)? {
        guard let parts = URLParts(text), parts.scheme == nil, parts.pathAndQuery.isEmpty, let port = parts.port,
            port > 0
        else { return nil }
        return (parts.host, port)
    }
}
