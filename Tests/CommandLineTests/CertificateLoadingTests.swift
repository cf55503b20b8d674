import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// Certificates loaded when a name is first asked for (docs/certificates.md, "Many certificates"):
/// none at start, one per name asked, a changed one alone loaded again, the cache kept within
/// `--certificate-cache-mib`; against the real binary with curl and `openssl s_client`.
@Suite("aasa-server serve: certificates loaded when asked", .serialized)
final class CertificateLoadingTests {
    let folder: TemporaryFolder
    let certificates: TestCertificates

    init() throws {
        folder = try TemporaryFolder()
        certificates = try TestCertificates(in: folder)
    }

    /// `count` sites, each with its own certificate.
    func sites(_ count: Int) throws -> [String] {
        let names = (0..<count).map { "shop\($0).test" }
        for name in names {
            try folder.write("sites/\(name)/apple-app-site-association", TLSTests.wild)
            try certificates.issue(name, names: [name])
        }
        return names
    }

    func start(_ extra: [String] = []) throws -> (RunningServer, port: Int, admin: Int) {
        let server = try RunningServer(
            in: folder.url,
            ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off"] + extra)
        let range = try #require(server.errors.range(of: "info listening on https://127.0.0.1:"))
        let port = try #require(Int(server.errors[range.upperBound...].prefix { $0.isNumber }))
        return (server, port, try #require(server.adminPort))
    }

    func get(_ name: String, port: Int) throws -> Curl.Response {
        try Curl.request(
            "https://\(name):\(port)/.well-known/apple-app-site-association",
            ["--cacert", certificates.caFile, "--resolve", "\(name):\(port):127.0.0.1"])
    }

    /// The value of an unlabelled sample of /metrics.
    func metric(_ name: String, admin: Int) throws -> Int? {
        let text = String(decoding: try Curl.request("http://127.0.0.1:\(admin)/metrics").body, as: UTF8.self)
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ")[1]) }.map { Int($0) }
    }

    @Test("none loaded at start; each name's first handshake loads its certificate, later ones reuse it")
    func loadedWhenAsked() throws {
        _ = try sites(3)
        let (server, port, admin) = try start()
        defer { _ = server.stop() }
        #expect(try metric("aasa_certificates_loaded", admin: admin) == 0)
        #expect(try get("shop1.test", port: port).status == 200)
        #expect(try get("shop2.test", port: port).status == 200)
        #expect(try get("shop1.test", port: port).status == 200)
        #expect(try metric("aasa_certificates_loaded", admin: admin) == 2)
        #expect(try metric("aasa_certificate_loads_total", admin: admin) == 2)
        // A renewed certificate (new key and chain in its folder) is loaded again, alone.
        let before = try serial("shop1.test", port: port)
        try certificates.issue("shop1.test", names: ["shop1.test"])
        #expect(eventually(10) { (try? self.serial("shop1.test", port: port)) != before })
        #expect(try get("shop2.test", port: port).status == 200)
        #expect(try metric("aasa_certificate_loads_total", admin: admin) == 3)
        let page = String(decoding: try Curl.request("http://127.0.0.1:\(admin)/").body, as: UTF8.self)
        #expect(page.contains("Loaded for handshakes: 2 certificates"), "\(page)")
    }

    @Test("--certificate-cache-mib bounds the loaded certificates: the least recently used go, and load again")
    func budget() throws {
        // About 10 KiB each (CertificateCache.entryBytes and the files): 1 MiB holds about 100.
        let names = try sites(128)
        let (server, port, admin) = try start(["--certificate-cache-mib", "1"])
        defer { _ = server.stop() }
        for name in names { #expect(try get(name, port: port).status == 200, "\(name)") }
        let loaded = try #require(try metric("aasa_certificates_loaded", admin: admin))
        #expect(loaded < names.count)
        #expect(try #require(try metric("aasa_certificate_cache_bytes", admin: admin)) <= 1 << 20)
        #expect(try #require(try metric("aasa_certificate_evictions_total", admin: admin)) > 0)
        // The first names went first; asked again, they load again and serve.
        #expect(try get(names[0], port: port).status == 200)
        #expect(try metric("aasa_certificate_loads_total", admin: admin) == names.count + 1)
    }

    /// The serial number the server presents for `name`.
    func serial(_ name: String, port: Int) throws -> String {
        let (_, output) = try TestCertificates.openssl(
            ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", name, "-showcerts"], input: "")
        let pem = try #require(output.firstRange(of: #/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/#))
        let folder = try TemporaryFolder()
        let file = try folder.write("leaf.pem", String(output[pem]))
        return try TestCertificates.openssl(["x509", "-in", file, "-noout", "-serial"]).output
    }
}
