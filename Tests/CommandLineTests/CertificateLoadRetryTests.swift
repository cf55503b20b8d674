import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// A certificate whose first load failed for the system's state, not its files (descriptors
/// exhausted), is tried again at a later handshake after a backoff, and served once the
/// system recovers, without its files changing (docs/certificates.md, "Many certificates").
@Suite("certificate loads tried again after a passing failure")
struct CertificateLoadRetryTests {
    /// An unlabelled sample of /metrics, read on the admin connection kept open.
    static func metric(_ admin: RawClient, _ name: String) -> Int {
        let text = DescriptorStarvationTests.get(admin, "/metrics") ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ")[1]) }.map { Int($0) } ?? -1
    }

    @Test(
        "descriptors exhausted at a first handshake: failed, tried again after a backoff, logged once, then served",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "needs prlimit (util-linux)"))
    func triedAgain() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", SiteFixtures.oneAppAASA("one"))
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("example.com", names: ["example.com"])
        let server = try RunningServer(
            in: folder.url,
            ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off", "--workers", "1"])
        defer { _ = server.stop() }
        let range = try #require(server.errors.range(of: "info listening on https://127.0.0.1:"))
        let port = try #require(Int(server.errors[range.upperBound...].prefix { $0.isNumber }))
        let pid = server.process.processIdentifier
        // The admin connection, open before the limit: /metrics is read on it throughout.
        let admin = try RawClient(port: try #require(server.adminPort))
        #expect(Self.metric(admin, "aasa_certificate_loads_total") == 0)
        func served() throws -> Bool {
            let (status, output) = try TestCertificates.openssl(
                [
                    "s_client", "-connect", "127.0.0.1:\(port)", "-servername", "example.com", "-CAfile",
                    certificates.caFile,
                ], input: "")
            // s_client says "Verify return code: 0 (ok)" after a refused handshake too.
            return status == 0 && output.contains("subject=CN = example.com")
                && output.contains("Verify return code: 0 (ok)")
        }

        // One descriptor left: the handshake's connection takes it, so the loader's open(2) of
        // the chain fails with EMFILE.
        let open = try DescriptorStarvationTests.lowestFree(pid)
        try DescriptorStarvationTests.setLimit(pid, open + 1)
        #expect(try !served())
        let failure = "cannot load the certificate chain"
        #expect(eventually(10) { server.errors.contains("open: Too many open files (EMFILE)") }, "\(server.errors)")
        #expect(server.errors.contains("tried again at a later handshake"), "\(server.errors)")
        #expect(Self.metric(admin, "aasa_certificate_load_failures") == 1)

        // Still starved: handshakes after the backoff (1 s, then 2 s) try again and fail, not
        // each handshake, and the failure is not logged again.
        var (handshakes, refused) = (1, 1)
        let triedTwice = try eventually(15) {
            handshakes += 1
            if try !served() { refused += 1 }
            return Self.metric(admin, "aasa_certificate_load_retries_total") >= 2
        }
        #expect(triedTwice && refused == handshakes, "\(refused) of \(handshakes) handshakes refused")
        let retries = Self.metric(admin, "aasa_certificate_load_retries_total")
        #expect(retries == 2 && handshakes > retries + 1, "\(retries) tries again for \(handshakes) handshakes")
        #expect(server.errors.components(separatedBy: failure).count == 2, "\(server.errors)")
        print("starved: \(handshakes) handshakes, \(retries) loads tried again")

        // Descriptors back: a later handshake, once the backoff (4 s) has passed, is served; the
        // files were never touched.
        try DescriptorStarvationTests.setLimit(pid, open + 1000)
        #expect(try eventually(15) { try served() })
        #expect(Self.metric(admin, "aasa_certificate_load_failures") == 0)
        #expect(Self.metric(admin, "aasa_certificate_loads_total") == 1)
        #expect(Self.metric(admin, "aasa_certificate_load_retries_total") == 3)
        #expect(server.errors.contains("loaded after 3 failed tries"), "\(server.errors)")
        #expect(server.errors.components(separatedBy: failure).count == 2, "\(server.errors)")
    }
}
