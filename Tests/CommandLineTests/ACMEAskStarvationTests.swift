import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// Strangers cannot keep a real name from the on-demand ask (docs/security.md, "The on-demand
/// ask under a flood"): a slow ask service that allows one name, made-up names under the
/// wildcard site sent by `openssl s_client` from 127.0.0.1 as fast as it runs, and the real
/// client handshaking every half second from 127.0.0.2.
@Suite("ACME on-demand ask under a flood of made-up names", .serialized)
struct ACMEAskStarvationTests {
    let base: ACMETests

    init() throws {
        base = try ACMETests()
    }

    /// ClientHellos for made-up names under `*.staging.example.com`, `openssl s_client` 16 at
    /// a time on a thread of the test, until `stop()` or `limit` names.
    final class Junk: @unchecked Sendable {
        private let lock = NSLock()
        private var stopping = false
        private var count = 0
        private let done = DispatchSemaphore(value: 0)

        var sent: Int { lock.withLock { count } }

        init(port: Int, limit: Int) {
            let thread = Thread { [self] in
                var next = 0
                while next < limit, !lock.withLock({ stopping }) {
                    let batch = (next..<next + 16).compactMap { index -> Process? in
                        let client = Process()
                        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                        client.arguments = [
                            "openssl", "s_client", "-connect", "127.0.0.1:\(port)", "-servername",
                            "junk\(index).staging.example.com",
                        ]
                        client.standardInput = FileHandle.nullDevice
                        client.standardOutput = FileHandle.nullDevice
                        client.standardError = FileHandle.nullDevice
                        return (try? client.run()) == nil ? nil : client
                    }
                    for client in batch { client.waitUntilExit() }
                    next += 16
                    lock.withLock { count = next }
                }
                done.signal()
            }
            thread.start()
        }

        func stop() {
            lock.withLock { stopping = true }
            done.wait()
        }
    }

    @Test("a name the ask service allows is asked within seconds while one client floods made-up names")
    func realNameAsked() throws {
        let pebble = try Pebble(httpPort: base.httpPort, tlsPort: base.httpsPort)
        let real = "pr-7.staging.example.com"
        let ask = try PeerProcess(script: "on-demand-ask.py", arguments: ["--delay", "1", real])
        let port = try #require(ask.port(within: 10), "the peer did not start: \(ask.output)")
        let server = try base.serve(
            pebble, ["--acme-challenges", "http-01", "--acme-on-demand-ask", "http://127.0.0.1:\(port)/ask"])
        defer { _ = server.stop() }

        // More names than the test can send in its minute, so the flood never ends on its own.
        let junk = Junk(port: base.httpsPort, limit: 100_000)
        defer { junk.stop() }
        func sent() -> Int { junk.sent }
        // The flood is on: hundreds of names sent, the slow service busy with them.
        #expect(eventually(30) { sent() >= 300 && ACMEOnDemandNamesTests.asked(ask, prefix: "junk") >= 2 })
        let before = sent()

        // 30 s on the monotonic clock: room for a loaded 2-core runner, still far below what the
        // single queue gave (never, for minutes, docs/security.md "The on-demand ask under a flood").
        let clock = ContinuousClock()
        let started = clock.now
        let window = Duration.seconds(30)
        var handshakes = 0
        var asked = false
        while !asked && clock.now - started < window {
            // The real client's pace: a handshake every half second, the ask service watched between.
            let next = clock.now + .milliseconds(500)
            handshakes += 1
            _ = try? Curl.request(
                "https://\(real):\(base.httpsPort)/.well-known/apple-app-site-association",
                ["--interface", "127.0.0.2", "--resolve", "\(real):\(base.httpsPort):127.0.0.1", "-k", "-m", "2"])
            let left = next - clock.now
            let seconds = max(0, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
            asked = eventually(seconds) { ACMEOnDemandNamesTests.asked(ask, real) > 0 }
        }
        let took = clock.now - started
        let floodOn = sent() < 100_000
        print(
            "acme ask under a flood: \(real) asked after \(took), \(handshakes) handshakes, "
                + "\(sent() - before) made-up names sent meanwhile, \(ACMEOnDemandNamesTests.asked(ask, prefix: "junk")) "
                + "of them asked")
        #expect(asked, "never asked in \(window): \(sent() - before) made-up names sent meanwhile")
        #expect(floodOn, "the flood ran out before the real name was asked")
        #expect(eventually(10) { sent() > before }, "the flood goes on")
        // Asked once, as any name: an allowed name is ordered.
        #expect(eventually(10) { server.errors.contains("acme: on-demand name allowed by the ask URL") })
        #expect(ACMEOnDemandNamesTests.asked(ask, real) == 1)
    }
}
