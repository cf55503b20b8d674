import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// A stranger given a /48 (RFC 6177) sends its ClientHellos from its /64s, one each, as the
/// real server sees them: the binary in a network namespace of its own where any address of
/// 2001:db8::/32 is local (`NetworkNamespace`). Its /48 is counted as a few sources, not one per
/// /64 (`SourceBlocks`, docs/security.md, "Work a stranger can queue"): most of its names are
/// refused, and a client from another /48 is served next. Counted per /64, all 300 were queued.
@Suite("aasa-server serve: the certificate loader under a flood from every /64 of a /48", .serialized)
struct SourceBlockFloodTests {
    static let count = 300

    @Test(
        "300 names, each from another /64 of one /48: at most 160 queued, the rest refused; another /48's load queued",
        .enabled(if: NetworkNamespace.works, "needs root, unshare --net and nsenter to bind the addresses of a /48"))
    func flood() throws {
        let folder = try TemporaryFolder()
        let names = (0..<Self.count).map { String(format: "n%03d.flood.test", $0) }
        let real = "real.flood.test"
        try CertificateLoaderFloodTests.certificates(names + [real], in: folder)
        try folder.write("sites/\(real)/apple-app-site-association", ProbeTests.apple)
        let server = try RunningServer(
            in: folder.url,
            [
                "--sites", "sites", "--certs", "certs", "--https", "[\(NetworkNamespace.server)]:0", "--access-log",
                "off",
            ],
            network: NetworkNamespace.setup)
        defer { _ = server.stop() }
        let pid = server.process.processIdentifier
        let range = try #require(server.errors.range(of: "info listening on https://[\(NetworkNamespace.server)]:"))
        let port = try #require(Int(server.errors[range.upperBound...].prefix { $0.isNumber }))
        let admin = try #require(server.adminPort)
        func metrics() throws -> String {
            String(decoding: try Curl.request("http://127.0.0.1:\(admin)/metrics", network: pid).body, as: UTF8.self)
        }

        // 2001:db8:1::/48: each connection from another /64, spread over its /56s; last, in the
        // same burst, a real client from 2001:db8:2::/48.
        let sources = (0..<Self.count).map { String(format: "2001:db8:1:%x::1", $0 * 97) } + ["2001:db8:2::5"]
        let descriptors = try NetworkNamespace.connect(from: sources, port: port, in: pid)
        defer { for fd in descriptors { close(fd) } }
        try CertificateLoaderFloodTests.sendClientHellos(names + [real], over: descriptors)
        // Its load was queued behind none of the flood's places: the server goes on with the
        // handshake (a handshake record, RFC 8446 §5.1), where a refused one gets an alert (21).
        #expect(try CertificateLoaderFloodTests.firstRecordType(try #require(descriptors.last)) == 22)
        let refused = "aasa_certificate_loads_refused_total"
        #expect(try eventually(10) { CertificateLoaderFloodTests.metric(try metrics(), refused) > 0 })
        // Another client from that /48, while the flood's loads are still going.
        let started = Date()
        let answer = try Curl.request(
            "https://\(real):\(port)/.well-known/apple-app-site-association",
            [
                "--interface", "2001:db8:2::5", "--resolve", "\(real):\(port):[\(NetworkNamespace.server)]", "-k",
                "-m", "5",
            ], network: pid)
        let took = Date().timeIntervalSince(started)
        #expect(answer.status == 200)
        let text = try metrics()
        let loads = CertificateLoaderFloodTests.metric(text, "aasa_certificate_loads_total")
        print(
            "certificate loader flood from one /48: \(Self.count) names from as many /64s, "
                + "\(CertificateLoaderFloodTests.metric(text, refused)) refused, \(loads) loaded; "
                + "a client from another /48 served in \(String(format: "%.3f", took)) s")
        #expect(
            try eventually(10) {
                CertificateLoaderFloodTests.metric(try metrics(), "aasa_certificate_loads_queued") == 0
            })
    }
}
