import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// Strangers get no customer's certificate: without `--default-certificate` a handshake without
/// SNI, or for a name nothing covers, is refused with `unrecognized_name` (RFC 6066 §3); with
/// one, that certificate is presented. Checked with `openssl s_client` against the real binary.
@Suite("aasa-server serve: the default certificate", .serialized)
final class DefaultCertificateTests {
    let folder: TemporaryFolder
    let certificates: TestCertificates

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("sites/bakery.test/apple-app-site-association", TLSTests.wild)
        try folder.write("sites/*.shop.test/apple-app-site-association", TLSTests.wild)
        certificates = try TestCertificates(in: folder)
        try certificates.issue("bakery.test", names: ["bakery.test"])
        try certificates.issue("shop.test", names: ["*.shop.test"])
        try certificates.issue("fallback.test", names: ["fallback.test"])
    }

    func start(_ extra: [String]) throws -> (RunningServer, port: Int) {
        let server = try RunningServer(
            in: folder.url,
            ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off"] + extra)
        let range = try #require(server.errors.range(of: "info listening on https://127.0.0.1:"))
        return (server, try #require(Int(server.errors[range.upperBound...].prefix { $0.isNumber })))
    }

    func handshake(_ port: Int, serverName: String?) throws -> (status: Int32, output: String) {
        let name = serverName.map { ["-servername", $0] } ?? ["-noservername"]
        return try TestCertificates.openssl(
            ["s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", certificates.caFile] + name, input: "")
    }

    func statusPage(_ server: RunningServer) throws -> String {
        let port = try #require(server.adminPort)
        return String(decoding: try Curl.request("http://127.0.0.1:\(port)/").body, as: UTF8.self)
    }

    @Test("by default, no SNI and an unknown name get unrecognized_name; known names still verify")
    func refusedByDefault() throws {
        let (server, port) = try start([])
        defer { _ = server.stop() }
        for name in [nil, "stranger.test", "a.b.shop.test"] {
            let refused = try handshake(port, serverName: name)
            #expect(refused.status != 0)
            #expect(refused.output.contains("unrecognized name"), "\(name ?? "no SNI"): \(refused.output)")
            #expect(!refused.output.contains("bakery.test"), "a customer's name leaked: \(refused.output)")
        }
        for name in ["bakery.test", "pr-7.shop.test"] {
            let served = try handshake(port, serverName: name)
            #expect(served.output.contains("Verify return code: 0 (ok)"), "\(name): \(served.output)")
        }
        let page = try statusPage(server)
        #expect(page.contains("Default certificate: none"), "\(page)")
        #expect(server.process.isRunning)
    }

    @Test("--default-certificate NAME presents that certificate to no SNI and to unknown names")
    func namedDefault() throws {
        let (server, port) = try start(["--default-certificate", "fallback.test"])
        defer { _ = server.stop() }
        for name in [nil, "stranger.test"] {
            let served = try handshake(port, serverName: name)
            #expect(
                served.output.contains("CN = fallback.test") || served.output.contains("CN=fallback.test"),
                "\(name ?? "no SNI"): \(served.output)")
        }
        let exact = try handshake(port, serverName: "bakery.test")
        #expect(exact.output.contains("CN = bakery.test") || exact.output.contains("CN=bakery.test"))
        let page = try statusPage(server)
        #expect(page.contains("Default certificate: <b>fallback.test</b>"), "\(page)")
    }

    @Test("--default-certificate off is the default; a name no certificate has stops start-up (CERT006)")
    func offAndMissing() throws {
        let (server, port) = try start(["--default-certificate", "off"])
        #expect(try handshake(port, serverName: nil).output.contains("unrecognized name"))
        _ = server.stop()
        let missing = try BinaryRunner.run(
            [
                "serve", "--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off",
                "--default-certificate", "nowhere.test",
            ], in: folder.url)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("CERT006"), "\(missing.stderr)")
    }
}
