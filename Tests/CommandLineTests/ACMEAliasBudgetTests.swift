import Foundation
import TestSupport
import Testing

/// Whoever deploys a site folder writes its `site.json`; its edits order certificates on the
/// shared account only within a budget (docs/acme.md, "Aliases and the budget"), against
/// Pebble: a burst of edits makes one order, the registered domain's budget caps them, and a
/// name under the ask-gated wildcard is never ordered as an alias.
@Suite("ACME alias orders within a budget", .serialized)
struct ACMEAliasBudgetTests {
    let base: ACMETests

    init() throws {
        base = try ACMETests()
    }

    /// Certificates stored: orders and renewals (an order for changed names renews the plan).
    func orders(_ server: RunningServer, _ pebble: Pebble) -> Int {
        let text = (try? base.admin(server, "/metrics")) ?? ""
        return ["aasa_acme_orders_total", "aasa_acme_renewals_total"].reduce(0) { total, family in
            let prefix = "\(family){issuer=\"\(pebble.label)\",result=\"valid\"} "
            let line = text.split(separator: "\n").first { $0.hasPrefix(prefix) }
            return total + (line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0)
        }
    }

    @Test("14 site.json edits in 20 s make one order; a third alias certificate of example.com waits a week")
    func burst() throws {
        let pebble = try Pebble(httpPort: base.httpPort, tlsPort: base.httpsPort)
        let ask = try PeerProcess(script: "on-demand-ask.py", arguments: ["pr-9.staging.example.com"])
        let port = try #require(ask.port(within: 10), "the peer did not start: \(ask.output)")
        let settings = try base.folder.write(
            "sites/shop.example.com/site.json", #"{"aliases": ["go0.shop.example.com", "pr-9.staging.example.com"]}"#)
        let server = try base.serve(
            pebble,
            [
                "--acme-challenges", "http-01", "--acme-on-demand-weekly", "2", "--acme-on-demand-ask",
                "http://127.0.0.1:\(port)/ask",
            ])
        defer { _ = server.stop() }
        #expect(eventually(60) { base.fetch("go0.shop.example.com", pebble)?.status == 200 }, "\(server.errors)")
        #expect(orders(server, pebble) == 1)
        // The alias under the ask-gated wildcard is refused (SITE014), never ordered nor asked.
        #expect(try base.admin(server, "/sites.json").contains("SITE014"))

        // The tenant edits site.json 14 times, one more alias each time, at its pace: an edit every
        // 1.4 s of the monotonic clock (14 in under 20 s), each one taken by a reload of its own
        // before the next, so every edit could have made an order.
        let start = ContinuousClock.now
        for edit in 1...14 {
            let names = (0...edit).map { "\"go\($0).shop.example.com\"" }.joined(separator: ", ")
            try Data(#"{"aliases": [\#(names)]}"#.utf8).write(to: URL(fileURLWithPath: settings))
            let next = start + .milliseconds(1_400 * edit)
            let taken = try eventually(10) {
                try base.admin(server, "/sites.json").contains("go\(edit).shop.example.com")
                    && ContinuousClock.now >= next
            }
            #expect(taken, "edit \(edit) was not reloaded")
        }
        print("acme aliases: 14 edits made in \(ContinuousClock.now - start)")
        #expect(
            eventually(90) { base.fetch("go14.shop.example.com", pebble)?.status == 200 },
            "\(server.errors.suffix(3000))")
        let afterBurst = orders(server, pebble)
        print("acme aliases: 14 edits in 20 s made \(afterBurst - 1) order(s)")
        #expect(afterBurst == 2, "\(server.errors.suffix(3000))")

        // Two alias certificates of example.com this week (--acme-on-demand-weekly 2): the next waits.
        try Data(#"{"aliases": ["go0.shop.example.com", "late.shop.example.com"]}"#.utf8).write(
            to: URL(fileURLWithPath: settings))
        #expect(eventually(30) { server.errors.contains("acme: alias budget spent; the certificate waits") })
        #expect(orders(server, pebble) == 2)
        #expect(try base.admin(server, "/").contains("example.com had 2 certificates for aliases in 7 days"))
        #expect(base.fetch("late.shop.example.com", pebble) == nil)

        #expect(ACMEOnDemandNamesTests.asked(ask, "pr-9.staging.example.com") == 0)
        #expect(!server.errors.contains("pr-9.staging.example.com,"))
        #expect(
            !FileManager.default.fileExists(
                atPath: base.folder.url.appendingPathComponent("certs/acme/pr-9.staging.example.com").path))
    }
}
