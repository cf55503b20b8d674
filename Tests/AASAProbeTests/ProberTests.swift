import AASAProbe
import AASATransport
import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// `probe`'s checks in process against sites that answer exactly so (a folder served by
/// `Tests/Peers/static-https-server.py` with a certificate of a test CA): each check passes,
/// warns or fails for its own reason, and one failure fails the report.
@Suite("probe checks", .serialized)
final class ProberTests {
    /// The names the peer's certificate holds; `stranger.test` is served but not among them.
    static let names = [
        "good.test", "android.test", "redirect.test", "wrong-type.test", "invalid.test", "root-differs.test",
        "root-missing.test", "agent.test", "signed.test",
    ]

    let folder: TemporaryFolder
    let certificates: TestCertificates
    let peer: PeerProcess
    let port: Int

    init() throws {
        folder = try TemporaryFolder("aasa-probe")
        certificates = try TestCertificates(in: folder)
        try certificates.issue("target", names: Self.names)
        let aasa = SiteFixtures.oneAppAASA(path: "/buy/*")
        for host in Self.names + ["stranger.test"] where host != "signed.test" {
            try folder.write("files/\(host)/.well-known/apple-app-site-association", aasa)
            try folder.write("files/\(host)/apple-app-site-association", aasa)
        }
        try folder.write("files/android.test/.well-known/assetlinks.json", SiteFixtures.oneAppAssetLinks())
        try folder.write(
            "files/redirect.test/.well-known/apple-app-site-association.head",
            "HTTP/1.1 301 Moved Permanently\r\nLocation: https://www.redirect.test/.well-known/apple-app-site-association"
        )
        try folder.write(
            "files/wrong-type.test/.well-known/apple-app-site-association.head",
            "HTTP/1.1 200 OK\r\nContent-Type: text/html")
        try folder.write("files/invalid.test/.well-known/apple-app-site-association", #"{"applinks": {"details": ["#)
        try folder.write("files/root-differs.test/apple-app-site-association", SiteFixtures.oneAppAASA(path: "/sell/*"))
        try FileManager.default.removeItem(atPath: folder.path("files/root-missing.test/apple-app-site-association"))
        try folder.write("files/agent.test/.well-known/apple-app-site-association.bot", "{}")
        try Self.writeSigned(in: folder, by: certificates)
        let target = certificates.directory.appendingPathComponent("target")
        peer = try PeerProcess(
            script: "static-https-server.py",
            arguments: [
                target.appendingPathComponent("fullchain.pem").path, target.appendingPathComponent("privkey.pem").path,
                folder.path("files"),
            ])
        port = try #require(peer.port(within: 10), "the peer did not start: \(peer.output)")
    }

    /// signed.test's Apple file, CMS-signed by its own certificate and served as
    /// application/pkcs7-mime at both paths.
    static func writeSigned(in folder: TemporaryFolder, by certificates: TestCertificates) throws {
        let input = try folder.write("signing/signed.json", SiteFixtures.oneAppAASA(path: "/buy/*"))
        let target = certificates.directory.appendingPathComponent("target")
        let output = try folder.folder("files/signed.test/.well-known") + "/apple-app-site-association"
        try TestCertificates.openssl([
            "cms", "-sign", "-nodetach", "-binary", "-in", input, "-signer",
            target.appendingPathComponent("cert.pem").path, "-inkey", target.appendingPathComponent("privkey.pem").path,
            "-certfile", certificates.caFile, "-outform", "DER", "-out", output,
        ])
        try FileManager.default.copyItem(
            atPath: output, toPath: folder.path("files/signed.test/apple-app-site-association"))
        try folder.write(
            "files/signed.test/.well-known/apple-app-site-association.head",
            "HTTP/1.1 200 OK\r\nContent-Type: application/pkcs7-mime")
    }

    func probe(_ host: String, at port: Int? = nil) -> ProbeReport {
        let client = HTTPSClient(caFile: certificates.caFile, timeout: 5)
        return Prober(client: client, connectTo: ("127.0.0.1", port ?? self.port), checkCDN: false)
            .probe("\(host):\(port ?? self.port)")
    }

    /// The report's items as `outcome name: detail` lines, for messages.
    static func lines(_ report: ProbeReport) -> String {
        report.items.map { "\($0.outcome) \($0.name): \($0.detail)" }.joined(separator: "\n")
    }

    @Test("a good site: every check passes, assetlinks.json's 404 is a warning, the report does not fail")
    func goodSite() throws {
        let report = probe("good.test")
        #expect(report.domain == "good.test")
        #expect(!report.failed, "\(Self.lines(report))")
        let outcomes = Dictionary(report.items.map { ($0.name, $0.outcome) }, uniquingKeysWith: { $1 })
        for name in [
            "tcp", "tls", "certificate", "apple-app-site-association status", "apple-app-site-association content type",
            "apple-app-site-association size", "apple-app-site-association content", "root path", "user agent",
        ] {
            #expect(outcomes[name] == .pass, "\(name): \(Self.lines(report))")
        }
        #expect(outcomes["assetlinks.json"] == .warn)
        #expect(
            report.items.first { $0.name == "certificate" }?.detail.hasPrefix("valid for good.test and trusted") == true
        )
    }

    @Test(
        "each fault fails (or warns) its own check, saying why",
        arguments: [
            (
                "redirect.test", "apple-app-site-association", ProbeReport.Outcome.fail,
                "redirects (301) to https://www.redirect.test/.well-known/apple-app-site-association"
            ),
            ("wrong-type.test", "apple-app-site-association content type", .fail, "text/html, not application/json"),
            ("invalid.test", "apple-app-site-association content", .fail, "invalid:"),
            ("root-differs.test", "root path", .fail, "serves different bytes"),
            ("root-missing.test", "root path", .warn, "answers 404 (only old clients read it)"),
            ("agent.test", "user agent", .fail, "gets 200 and other bytes"),
            ("stranger.test", "certificate", .fail, "not trusted for stranger.test"),
            ("android.test", "assetlinks.json content", .pass, "valid"),
            ("signed.test", "apple-app-site-association content type", .pass, "application/pkcs7-mime"),
        ])
    func faults(host: String, name: String, outcome: ProbeReport.Outcome, detail: String) throws {
        let report = probe(host)
        let item = try #require(report.items.first { $0.name == name }, "no \(name): \(Self.lines(report))")
        #expect(item.outcome == outcome, "\(Self.lines(report))")
        #expect(item.detail.contains(detail), "\(item.detail)")
        #expect(report.failed == (outcome == .fail))
    }

    @Test("a signed file by the site's own certificate validates as content")
    func signedFile() throws {
        let report = probe("signed.test")
        let item = try #require(report.items.first { $0.name == "apple-app-site-association content" })
        #expect(item.outcome != .fail, "\(Self.lines(report))")
    }

    @Test("no one listening: the TCP check fails and nothing else is asked")
    func closedPort() throws {
        let listener = try LoopbackSocket.listen()
        close(listener.fd)
        let closed = listener.port
        let report = probe("good.test", at: closed)
        #expect(report.items.map(\.name) == ["tcp"], "\(Self.lines(report))")
        #expect(report.failed)
    }

    @Test("a target that is no domain fails at once", arguments: ["", "https://", "a b"])
    func badTarget(_ target: String) {
        let report = Prober(client: HTTPSClient(caFile: nil, timeout: 1), connectTo: nil, checkCDN: false)
            .probe(target)
        #expect(report.items.map(\.name) == ["target"])
        #expect(report.failed)
    }
}
