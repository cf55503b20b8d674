import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// `--max-handshakes` and `--max-connections` against a flood of half-open TLS handshakes:
/// the real binary, real ClientHellos from many sockets, memory read from /proc (proc(5)).
@Suite("connection and handshake caps", .serialized)
struct ConnectionCapTests {
    /// A server on HTTPS only with a certificate for example.test, two loops, and the admin
    /// listener for /metrics.
    final class TLSServer {
        let folder: TemporaryFolder
        let certificates: TestCertificates
        let server: RunningServer
        let adminPort: Int

        init(_ arguments: [String]) throws {
            folder = try TemporaryFolder()
            try folder.write(
                "sites/example.test/apple-app-site-association",
                SiteFixtures.webCredentialsAASA())
            certificates = try TestCertificates(in: folder)
            try certificates.issue("example.test", names: ["example.test"])
            server = try RunningServer(
                in: folder.url,
                [
                    "--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off", "--workers", "2",
                    "--access-log", "off",
                ] + arguments)
            adminPort = try #require(server.adminPort)
        }

        deinit { _ = server.stop() }

        /// A request as a client that finishes its handshake at once makes it.
        func fetch() throws -> Curl.Response {
            try Curl.request(
                "https://example.test:\(server.port)/apple-app-site-association",
                ["--cacert", certificates.caFile, "--resolve", "example.test:\(server.port):127.0.0.1"])
        }

        /// One unlabelled (or exactly labelled) sample of /metrics.
        func metric(_ series: String) throws -> Double? {
            let text = String(decoding: try Curl.request("http://127.0.0.1:\(adminPort)/metrics").body, as: UTF8.self)
            let line = text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
            return line?.split(separator: " ").last.flatMap { Double($0) }
        }

        /// VmRSS of the server (proc(5), /proc/PID/status), in KiB.
        var residentKiB: Int {
            let path = "/proc/\(server.process.processIdentifier)/status"
            let status = try? String(contentsOfFile: path, encoding: .utf8)
            let line = status?.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            return line.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        }
    }

    /// The test opens thousands of sockets: its own soft descriptor limit goes up to the hard one.
    static func raiseDescriptorLimit(to wanted: Int) -> Bool {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return false }
        if limit.rlim_cur < rlim_t(wanted) {
            limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
            setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        return getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 && limit.rlim_cur >= rlim_t(wanted)
    }

    /// The memory the test allows per handshake in progress, in KiB: above what one costs
    /// (about 43 KiB; 51 KiB without SSL_MODE_RELEASE_BUFFERS). Memory bounds do not apply
    /// under AddressSanitizer, whose quarantine keeps freed memory.
    static let perHandshakeKiB = 64

    @Test(
        "past --max-handshakes the oldest half-open handshake goes: a real client is served, memory follows the cap",
        .enabled(if: raiseDescriptorLimit(to: 2_048), "needs 2,048 descriptors"))
    func smallCaps() throws {
        let tls = try TLSServer(["--max-handshakes", "50", "--max-connections", "200"])
        let hello = try HalfOpenFlood.captureClientHello(serverName: "example.test")
        #expect(try tls.fetch().status == 200)
        let before = tls.residentKiB
        // Without the cap every one of these waits out its 10 s handshake deadline in memory.
        let flood = try HalfOpenFlood(port: tls.server.port, count: 1_000, clientHello: hello)
        let closedAtCap = "aasa_connections_closed_at_cap_total{cap=\"handshakes\"}"
        #expect(try eventually(10) { try tls.metric(closedAtCap) ?? 0 >= 900 })
        let inProgress = try tls.metric("aasa_tls_handshakes_in_progress")
        #expect(inProgress == 50, "handshakes in progress: \(String(describing: inProgress))")
        let started = Date()
        #expect(try tls.fetch().status == 200)
        #expect(
            BinaryRunner.underSanitizer || Date().timeIntervalSince(started) < 3,
            "a client that completes its handshake is served at once")
        #expect(try tls.metric("aasa_tls_handshakes_in_progress") ?? 51 <= 50)
        // The cap's slots, plus what the loops and the allocator keep of the 950 that went.
        let bound = before + 50 * Self.perHandshakeKiB + 10 * 1024
        let during = tls.residentKiB
        #expect(
            BinaryRunner.underAddressSanitizer || during <= bound,
            "resident \(during) KiB, before the flood \(before) KiB, bound \(bound) KiB")
        flood.close()
        #expect(try eventually(5) { try tls.metric("aasa_tls_handshakes_in_progress") == 0 })
        #expect(tls.server.process.isRunning)
    }

    @Test(
        "3,000 half-open handshakes at the default caps stay under 128 MiB, and the memory goes back after",
        .enabled(if: raiseDescriptorLimit(to: 4_096), "needs 4,096 descriptors"))
    func defaultCapsFlood() throws {
        let tls = try TLSServer([])
        let hello = try HalfOpenFlood.captureClientHello(serverName: "example.test")
        #expect(try tls.fetch().status == 200)
        let before = tls.residentKiB
        let flood = try HalfOpenFlood(port: tls.server.port, count: 3_000, clientHello: hello)
        var peak = tls.residentKiB
        #expect(
            try eventually(20) {
                peak = max(peak, tls.residentKiB)
                return try tls.metric("aasa_connections_closed_at_cap_total{cap=\"handshakes\"}") ?? 0 >= 2_000
            })
        peak = max(peak, tls.residentKiB)
        #expect(try tls.metric("aasa_tls_handshakes_in_progress") == 1_000)
        #expect(
            BinaryRunner.underAddressSanitizer || peak < 128 * 1024,
            "peak resident \(peak) KiB with 1,000 handshakes in progress")
        #expect(try tls.fetch().status == 200)
        flood.close()
        // Given back within seconds of the closes: at most a quarter of the flood's growth remains.
        let back = before + max(4 * 1024, (peak - before) / 4)
        #expect(
            BinaryRunner.underAddressSanitizer || eventually(5) { tls.residentKiB <= back },
            "resident \(tls.residentKiB) KiB, peak \(peak) KiB, before \(before) KiB")
        #expect(tls.server.process.isRunning)
    }
    @Test("past --max-connections the longest idle connection goes; with none idle, new clients wait, not spin")
    func connectionCap() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "sites/example.com/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--workers", "1", "--access-log", "off", "--max-connections", "20"])
        let adminPort = try #require(server.adminPort)
        func metric(_ series: String) throws -> Double? {
            let text = String(decoding: try Curl.request("http://127.0.0.1:\(adminPort)/metrics").body, as: UTF8.self)
            let line = text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
            return line?.split(separator: " ").last.flatMap { Double($0) }
        }
        let request = "GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n"
        // 20 keep-alive clients, answered and idle: the cap is full.
        var idle: [RawClient] = []
        for _ in 0..<20 {
            let client = try RawClient(port: server.port, receiveTimeout: 5)
            client.send(request)
            #expect(RawClient.readResponse(client) != nil)
            idle.append(client)
        }
        // A 21st is answered: the one idle the longest (the first) is closed for it.
        let newcomer = try RawClient(port: server.port, receiveTimeout: 5)
        newcomer.send(request)
        #expect(RawClient.readResponse(newcomer) != nil)
        #expect(idle[0].readAll().closedByServer)
        #expect(try metric("aasa_connections_closed_at_cap_total{cap=\"connections\"}") == 1)
        // Now every slot is in the middle of a request head: none is idle, so accepting waits.
        idle = []
        var busy: [RawClient] = []
        for _ in 0..<20 {
            let client = try RawClient(port: server.port, receiveTimeout: 5)
            client.send("GET /apple-app-site-association HTTP/1.1\r\n")
            busy.append(client)
        }
        #expect(try eventually(5) { try metric("aasa_open_connections") == 20 })
        let waiting = try RawClient(port: server.port, receiveTimeout: 1)
        waiting.send(request)
        #expect(try eventually(5) { try metric("aasa_accepts_deferred_total") ?? 0 >= 1 })
        let before = try ProcessTimes.cpuSeconds(of: server.process.processIdentifier)
        // Not answered within a second (it waits in the backlog), and the loop does not spin meanwhile.
        #expect(RawClient.readResponse(waiting) == nil)
        let spent = try ProcessTimes.cpuSeconds(of: server.process.processIdentifier) - before
        #expect(
            BinaryRunner.underSanitizer || spent < 0.3, "the server used \(spent) CPU-s in 1 s at the connection cap")
        // A slot frees: the waiting client is accepted and answered.
        busy.removeFirst()
        var answered = false
        for _ in 0..<5 where !answered { answered = RawClient.readResponse(waiting) != nil }
        #expect(answered)
        // Gone before the stop, which would otherwise wait for their heads (timeouts.requestHead).
        busy.removeAll()
        #expect(server.stop() == 0)
    }
}
