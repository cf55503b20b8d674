import AASAFileCommands
import AASAProbe
import AASASignedData
import ArgumentParser
import Foundation

/// `aasa-server check-app --entitlements FILE [--app-id TEAMID.BUNDLE] (--sites DIR | --live) [--json]`
/// and, for Android, `--package NAME (--fingerprint SHA256 | --certificate FILE) --domain D…`:
/// does every domain the app claims serve a valid file that lists this app?
struct CheckAppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-app",
        abstract: "Check an app's associated domains against the files the sites serve.",
        discussion: """
            Apple: every applinks:, webcredentials:, appclips: and activitycontinuation: entry \
            of the entitlements (a property list or a provisioning profile) must have a site \
            serving a valid file that lists the app ID under that service. Android: every \
            --domain's assetlinks.json must grant the package with the certificate's SHA-256 \
            fingerprint. For passkeys (webcredentials: entries, and each Android --domain): \
            whether the package may use the domain's credentials, and the domain's webauthn and \
            passkey-endpoints, checked when served. Files come from --sites DIR, or live over HTTPS with --live. Exit 0 \
            all good, 1 a problem, 2 usage error or unreadable input.
            """)

    @Option(help: "Entitlements: a property list (.entitlements, codesign output) or a .mobileprovision.")
    var entitlements: String?

    @Option(
        name: .customLong("app-id"),
        help: "TEAMID.BUNDLE, when the entitlements hold only $(AppIdentifierPrefix) placeholders.")
    var appID: String?

    @Option(help: "Android: the application ID (package name).")
    var package: String?

    @Option(help: "Android: the signing certificate's SHA-256 fingerprint.")
    var fingerprint: String?

    @Option(help: "Android: the signing certificate (PEM or DER); its SHA-256 fingerprint is computed.")
    var certificate: String?

    @Option(
        name: .customLong("domain"), help: "Android: a domain whose assetlinks.json must grant the app (repeatable).")
    var domains: [String] = []

    @Option(help: "The sites directory to check against.")
    var sites: String?

    @Flag(help: "Check the live hosts over HTTPS instead (as probe does).")
    var live = false

    @Option(help: "With --live: trust this CA certificate (PEM) instead of the system store.")
    var cacert: String?

    @Option(name: .customLong("connect-to"), help: "With --live: dial HOST:PORT for every domain.")
    var connectTo: String?

    @Flag(help: "Print one JSON document.")
    var json = false

    func validate() throws {
        if (sites == nil) == !live { throw ValidationError("give exactly one of --sites DIR or --live") }
        if entitlements == nil && package == nil {
            throw ValidationError("give --entitlements FILE, or --package NAME for Android")
        }
        if package != nil && (fingerprint == nil) == (certificate == nil) {
            throw ValidationError("--package needs exactly one of --fingerprint SHA256 or --certificate FILE")
        }
        if package != nil && domains.isEmpty { throw ValidationError("--package needs at least one --domain") }
        if let connectTo, ProbeCommand.parseHostPort(connectTo) == nil {
            throw ValidationError("--connect-to takes HOST:PORT")
        }
    }

    func run() throws {
        let check = AppCheck(
            files: sites.map { .sites($0) }
                ?? .live(caFile: cacert, address: connectTo.flatMap(ProbeCommand.parseHostPort)))
        var reports: [ProbeReport] = []
        if let entitlements { reports.append(try apple(entitlements, check)) }
        if let package { reports.append(try android(package, check)) }
        StandardStreams.write(
            json
                ? ChecklistOutput.json(reports, list: "apps", subject: "app", item: "entry")
                : ChecklistOutput.text(reports))
        if reports.contains(where: \.failed) { throw CommandFailure.invalid }
    }

    private func apple(_ path: String, _ check: AppCheck) throws -> ProbeReport {
        let read: Entitlements
        do {
            read = try Entitlements(contentsOf: path)
        } catch {
            return try unreadable(path, error.reason)
        }
        guard let app = appID ?? read.applicationIdentifier.flatMap({ $0.contains("$(") ? nil : $0 }) else {
            StandardStreams.writeError(
                "\(path): error: no application-identifier without $(…) placeholders; give --app-id TEAMID.BUNDLE\n")
            throw CommandFailure.unreadable
        }
        return check.apple(read, app: app, path: path)
    }

    private func android(_ package: String, _ check: AppCheck) throws -> ProbeReport {
        var expected = fingerprint.map(AppCheck.normalizedFingerprint)
        if let certificate {
            guard let data = FileManager.default.contents(atPath: certificate),
                let computed = SignedContent.sha256Fingerprint(ofCertificate: [UInt8](data))
            else { return try unreadable(certificate, "not a PEM or DER certificate") }
            expected = computed
        }
        return check.android(package: package, fingerprint: expected, domains: domains)
    }

    private func unreadable(_ path: String, _ reason: String) throws -> ProbeReport {
        StandardStreams.writeError("\(path): error: \(reason)\n")
        throw CommandFailure.unreadable
    }
}
