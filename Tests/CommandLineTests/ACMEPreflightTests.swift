import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// The pre-flight before an order (docs/acme.md, "Pre-flight") against Pebble, with
/// pebble-challtestsrv's DNS as `--acme-preflight-resolver`: a name that does not point here
/// is never ordered and waits (`waiting_dns`); once it points here it is issued at the next
/// check. `AASA_TEST_PREFLIGHT_RETRY=1` makes the checks 1, 2, 4 … seconds apart.
@Suite("ACME pre-flight with Pebble's DNS", .serialized)
struct ACMEPreflightTests {
    let base: ACMETests

    init() throws {
        base = try ACMETests()
        try base.folder.write("sites/late.example.com/apple-app-site-association", ProbeTests.apple)
    }

    func metric(_ server: RunningServer, _ series: String) -> Int? {
        let text = (try? base.admin(server, "/metrics")) ?? ""
        return text.components(separatedBy: "\n").first { $0.hasPrefix(series + " ") }
            .flatMap { Int($0.dropFirst(series.count + 1)) }
    }

    /// The state `/sites.json` gives the certificate of site `name`.
    func certificateState(_ server: RunningServer, _ name: String) -> String? {
        guard let text = try? base.admin(server, "/sites.json?q=\(name)"),
            let document = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let sites = document["sites"] as? [[String: Any]],
            let site = sites.first(where: { $0["name"] as? String == name }),
            let certificate = site["certificate"] as? [String: Any]
        else { return nil }
        return certificate["state"] as? String
    }

    @Test("a name pointing elsewhere is waiting_dns and never ordered; pointed here, it is issued at the next check")
    func waitsForDNS() throws {
        let pebble = try Pebble(httpPort: base.httpPort, tlsPort: base.httpsPort)
        // 127.0.0.2 is loopback too, but the server listens on 127.0.0.1 only: nothing answers.
        try pebble.resolve("late.example.com", to: "127.0.0.2")
        let server = try base.serve(
            pebble, ["--acme-challenges", "http-01", "--acme-on-demand", "off"],
            environment: ["AASA_TEST_PREFLIGHT_RETRY": "1"])
        #expect(eventually(60) { base.fetch("shop.example.com", pebble)?.status == 200 }, "\(server.errors)")
        // Three checks of late.example.com failed (1 s, then 2 s apart): still no order for it.
        let failed = "aasa_acme_preflight_checks_total{result=\"failed\"}"
        #expect(eventually(30) { (metric(server, failed) ?? 0) >= 3 }, "\(server.errors)")
        #expect(metric(server, "aasa_acme_certificates{state=\"waiting_dns\"}") == 1)
        #expect(eventually(10) { metric(server, "aasa_acme_certificates{state=\"issued\"}") == 1 })
        #expect(metric(server, "aasa_acme_certificates{state=\"valid\"}") == nil, "the product's names only")
        let metrics = try base.admin(server, "/metrics")
        #expect(metrics.contains("aasa_acme_certificate_unissued{site=\"late.example.com\"} 1.0\n"))
        #expect(!metrics.contains("aasa_acme_certificate_unissued{site=\"shop.example.com\"}"))
        // The site's own facts on the status page: its state, the reason and the next check.
        let site = try base.admin(server, "/?q=late.example.com")
        #expect(site.contains(#"<dd class="certificate"><span class="bad">waiting_dns</span>: pre-flight: "#))
        #expect(site.contains("; next try "), "\(site)")
        #expect(pebble.ordersCreated == 1, "only shop.example.com's: \(pebble.output.suffix(3000))")
        #expect(!server.errors.contains("order created names=late.example.com"))
        let page = try base.admin(server, "/")
        #expect(page.contains("waiting_dns") && page.contains("late.example.com"))
        #expect(page.contains("pre-flight: http://late.example.com:\(base.httpPort) at 127.0.0.2: cannot connect"))
        #expect(server.errors.contains("acme: waiting for DNS; not ordered"))
        #expect(certificateState(server, "late.example.com") == "waiting_dns")
        #expect(certificateState(server, "shop.example.com") == "issued")
        #expect(
            !FileManager.default.fileExists(
                atPath: base.folder.url.appendingPathComponent("certs/acme/late.example.com").path))

        // The customer points the name here: the next check passes and the order follows.
        try pebble.resolve("late.example.com", to: "127.0.0.1")
        let pointed = Date()
        #expect(eventually(90) { base.fetch("late.example.com", pebble)?.status == 200 }, "\(server.errors)")
        print("acme pre-flight: pointed to served: \(Date().timeIntervalSince(pointed)) s")
        #expect(pebble.ordersCreated == 2, "one order for late.example.com, no failed one")
        #expect(eventually(10) { metric(server, "aasa_acme_certificates{state=\"waiting_dns\"}") == 0 })
        #expect(eventually(10) { certificateState(server, "late.example.com") == "issued" })
        let queries = metric(server, "aasa_acme_preflight_dns_queries_total") ?? 0
        let checks = metric(server, "aasa_acme_preflight_checks_total{result=\"passed\"}") ?? 0
        let failures = metric(server, failed) ?? 0
        let seconds =
            (try? base.admin(server, "/metrics"))?.components(separatedBy: "\n")
            .first { $0.hasPrefix("aasa_acme_preflight_seconds_total ") }
            .flatMap { Double($0.dropFirst("aasa_acme_preflight_seconds_total ".count)) } ?? 0
        print(
            "acme pre-flight: \(checks + failures) checks of \(checks + failures + 1) names, \(queries) DNS queries, "
                + "\(String(format: "%.1f", seconds * 1000 / Double(checks + failures + 1))) ms per name")
        // Two queries per name checked (A and AAAA; shop.example.com's check has two names),
        // nothing retried on loopback.
        #expect(queries == 2 * (checks + failures + 1), "\(queries) queries for \(checks + failures) checks")
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }

    @Test("another server answering for the name fails the check; --acme-preflight off orders at once")
    func anotherServer() throws {
        let pebble = try Pebble(httpPort: base.httpPort, tlsPort: base.httpsPort)
        // Another aasa-server serving the same sites, without ACME: it answers 404 for the token.
        let otherPort = try ProbeTests.freePort()
        let other = try RunningServer(
            in: base.folder.url, ["--sites", "sites", "--http", "127.0.0.1:\(otherPort)", "--access-log", "off"])
        let flags = [
            "--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:\(base.httpsPort)", "--access-log", "off",
            "--http", "127.0.0.1:\(base.httpPort)", "--acme", "on", "--acme-directory", pebble.directory,
            "--acme-directory-ca", pebble.listenerCA, "--acme-challenges", "http-01", "--acme-on-demand", "off",
        ]
        let server = try RunningServer(
            in: base.folder.url,
            flags + [
                "--acme-preflight-resolver", "127.0.0.1:\(pebble.dnsPort)", "--acme-preflight-port", "\(otherPort)",
            ],
            environment: ["AASA_TEST_PREFLIGHT_RETRY": "1"])
        #expect(
            eventually(30) { server.errors.contains("is another server (HTTP 404)") }, "\(server.errors.suffix(3000))")
        #expect(pebble.ordersCreated == 0)
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
        #expect(other.stop() == 0)

        let off = try RunningServer(in: base.folder.url, flags + ["--acme-preflight", "off"])
        #expect(eventually(60) { base.fetch("shop.example.com", pebble)?.status == 200 }, "\(off.errors)")
        #expect(metric(off, "aasa_acme_preflight_checks_total{result=\"passed\"}") == 0)
        #expect(off.stop() == 0, "\(off.errors.suffix(4000))")
    }
}
