import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// Who may spend the on-demand budget (docs/acme.md, "On-demand names"), against Pebble: a
/// wildcard site with on-demand on, an ask stand-in on loopback (`Tests/Peers/on-demand-ask.py`)
/// and name patterns; a made-up name under the wildcard orders nothing.
@Suite("ACME on-demand names: the ask URL and patterns", .serialized)
struct ACMEOnDemandNamesTests {
    let base: ACMETests

    init() throws {
        base = try ACMETests()
    }

    func metrics(_ server: RunningServer) -> String {
        (try? base.admin(server, "/metrics")) ?? ""
    }

    /// How many times the ask stand-in was asked about `name`.
    static func asked(_ ask: PeerProcess, _ name: String) -> Int {
        ask.output.split(separator: "\n").count { $0 == "ASK \(name)" }
    }

    /// How many names starting with `prefix` the ask stand-in was asked about.
    static func asked(_ ask: PeerProcess, prefix: String) -> Int {
        ask.output.split(separator: "\n").count { $0.hasPrefix("ASK \(prefix)") }
    }

    @Test("the ask URL: x1 and an oversized answer order nothing, pr-1 gets a certificate; each name asked once")
    func ask() throws {
        let pebble = try Pebble(httpPort: base.httpPort, tlsPort: base.httpsPort)
        let ask = try PeerProcess(script: "on-demand-ask.py", arguments: ["pr-1.staging.example.com"])
        let port = ask.port(within: 10)
        #expect(port != nil, "the peer did not start: \(ask.output)")
        let url = "http://127.0.0.1:\(try #require(port))/ask"
        let server = try base.serve(pebble, ["--acme-challenges", "http-01", "--acme-on-demand-ask", url])
        #expect(eventually(60) { base.fetch("shop.example.com", pebble)?.status == 200 }, "\(server.errors)")
        #expect(!server.errors.contains("anyone's to spend"))

        // A made-up name: its handshake goes on without a certificate while the ask runs; the
        // answer is no, remembered, so the next handshakes are refused without asking again.
        let made = "x1.staging.example.com"
        #expect(base.fetch(made, pebble) == nil)
        #expect(eventually(10) { metrics(server).contains("aasa_acme_on_demand_asks_total{result=\"refused\"} 1") })
        for _ in 1...3 { #expect(base.fetch(made, pebble) == nil) }
        #expect(Self.asked(ask, made) == 1, "\(ask.output)")
        #expect(metrics(server).contains("aasa_acme_on_demand_refused_total{reason=\"ask\"} 4"), "\(metrics(server))")

        // An answer over what the server reads is no answer: refused too.
        #expect(base.fetch("huge.staging.example.com", pebble) == nil)
        #expect(eventually(10) { metrics(server).contains("aasa_acme_on_demand_asks_total{result=\"failed\"} 1") })

        // The allowed name: ordered when the ask says yes; a handshake then gets its certificate.
        #expect(eventually(60) { base.fetch("pr-1.staging.example.com", pebble)?.status == 200 }, "\(server.errors)")
        #expect(Self.asked(ask, "pr-1.staging.example.com") == 1, "\(ask.output)")
        #expect(server.errors.contains("acme: on-demand name allowed by the ask URL"))

        let text = metrics(server)
        #expect(text.contains("aasa_acme_orders_total{issuer=\"\(pebble.label)\",result=\"valid\"} 2"), "\(text)")
        #expect(text.contains("aasa_acme_on_demand_asks_total{result=\"allowed\"} 1"), "\(text)")
        #expect(!server.errors.contains("names=\(made)"))
        #expect(!server.errors.contains("names=huge.staging.example.com"))
        for name in [made, "huge.staging.example.com"] {
            #expect(
                !FileManager.default.fileExists(
                    atPath: base.folder.url.appendingPathComponent("certs/acme/\(name)").path))
        }
        let page = try base.admin(server, "/")
        #expect(page.contains("names \(url) allows"), "\(page)")
        #expect(page.contains("\(made) (ask)"), "\(page)")
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }

    @Test("both, the ask over https with its CA: a name needs a pattern and a yes; one outside is never asked")
    func both() throws {
        let pebble = try Pebble(httpPort: base.httpPort, tlsPort: base.httpsPort)
        // The stand-in serves with Pebble's listener pair (IP:127.0.0.1), trusted by its CA file alone.
        let ask = try PeerProcess(
            script: "on-demand-ask.py",
            arguments: [
                "--tls", pebble.listenerCA, pebble.listenerKey, "pr-3.staging.example.com", "x9.staging.example.com",
            ])
        let port = ask.port(within: 10)
        #expect(port != nil, "the peer did not start: \(ask.output)")
        let server = try base.serve(
            pebble,
            [
                "--acme-challenges", "http-01", "--acme-on-demand-names", "pr-*.staging.example.com",
                "--acme-on-demand-ask", "https://127.0.0.1:\(try #require(port))/ask", "--acme-on-demand-ask-ca",
                pebble.listenerCA,
            ])
        #expect(eventually(60) { base.fetch("pr-3.staging.example.com", pebble)?.status == 200 }, "\(server.errors)")
        // Allowed by the ask but matching no pattern: refused without asking.
        #expect(base.fetch("x9.staging.example.com", pebble) == nil)
        // Matching a pattern but refused by the ask.
        #expect(base.fetch("pr-4.staging.example.com", pebble) == nil)
        #expect(eventually(10) { metrics(server).contains("aasa_acme_on_demand_asks_total{result=\"refused\"} 1") })
        #expect(Self.asked(ask, "x9.staging.example.com") == 0, "\(ask.output)")
        #expect(Self.asked(ask, "pr-3.staging.example.com") == 1, "\(ask.output)")
        let text = metrics(server)
        #expect(text.contains("aasa_acme_on_demand_refused_total{reason=\"names\"} 1"), "\(text)")
        #expect(text.contains("aasa_acme_on_demand_asks_total{result=\"failed\"} 0"), "\(text)")
        #expect(!server.errors.contains("names=pr-4.staging.example.com"))
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }

    @Test("without patterns or an ask URL start-up warns; patterns alone: pr-* is ordered, x1 refused unordered")
    func patterns() throws {
        let pebble = try Pebble(httpPort: base.httpPort, tlsPort: base.httpsPort)
        var server = try base.serve(pebble, ["--acme-challenges", "http-01"])
        #expect(eventually(10) { server.errors.contains("on-demand names are anyone's to spend") }, "\(server.errors)")
        #expect(eventually(60) { base.fetch("shop.example.com", pebble)?.status == 200 }, "\(server.errors)")
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")

        server = try base.serve(
            pebble,
            [
                "--acme-challenges", "http-01", "--acme-on-demand-names", "pr-*.staging.example.com",
                "--acme-on-demand-names", "preview.example.org",
            ])
        #expect(base.fetch("pr-2.staging.example.com", pebble)?.status == 200, "\(server.errors)")
        for _ in 1...2 { #expect(base.fetch("x1.staging.example.com", pebble) == nil) }
        #expect(metrics(server).contains("aasa_acme_on_demand_refused_total{reason=\"names\"} 2"))
        #expect(metrics(server).contains("aasa_acme_orders_total{issuer=\"\(pebble.label)\",result=\"valid\"} 1"))
        #expect(!server.errors.contains("names=x1.staging.example.com"))
        #expect(!server.errors.contains("anyone's to spend"))
        let page = try base.admin(server, "/")
        #expect(page.contains("names matching pr-*.staging.example.com, preview.example.org"), "\(page)")
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }
}
