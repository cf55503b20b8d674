import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// Attacks sent the way an attacker sends them, against the real binary on loopback: a
/// hostile client costs a small, fixed amount of memory and cannot hold a loop.
@Suite("hostile clients", .serialized)
struct HostileClientTests {
    /// A valid apple-app-site-association of about 110 KiB (the size guard allows 128 KiB).
    static let largeFile: String = {
        let components = (0..<6_200).map { #"{"/": "/p\#($0)/*"}"# }.joined(separator: ",")
        return #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": ["#
            + components + "]}]}}"
    }()

    static func residentKiB(_ server: RunningServer) -> Int {
        let status =
            (try? String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// The server's requests answered so far (`aasa_requests_total`, every path and status).
    static func answered(_ server: RunningServer) -> Int {
        guard let admin = server.adminPort,
            let metrics = try? RawClient.exchange(
                port: admin, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        else { return 0 }
        return metrics.split(separator: "\n").filter { $0.hasPrefix("aasa_requests_total{") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0) { $0 + Int($1) }
    }

    /// `request` (one head ending in its empty line) asking the server to close after it.
    static func closing(_ request: String) -> String {
        // By bytes: as Characters, "\r\n\r\n" is two, not four.
        String(decoding: request.utf8.dropLast(2), as: UTF8.self) + "Connection: close\r\n\r\n"
    }

    /// Connections that send `request` repeated to `bytes` bytes and then never read
    /// (a small receive buffer, so the server's answers pile up on its side).
    static func pipelineAndNeverRead(port: Int, clients: Int, request: String, bytes: Int) throws -> [RawClient] {
        let one = Array(request.utf8)
        let flood = Array(repeating: one, count: bytes / one.count).flatMap { $0 }
        return try (0..<clients).map { _ in
            let client = try RawClient(port: port, receiveBuffer: 4096)
            client.send(flood)
            return client
        }
    }

    /// The largest resident size seen over `seconds` (the server answers a flood for a while
    /// after the bytes are in).
    static func peakResidentKiB(_ server: RunningServer, over seconds: Double) -> Int {
        var peak = 0
        _ = eventually(seconds) {
            peak = max(peak, residentKiB(server))
            return false
        }
        return peak
    }

    @Test("pipelined requests for a 110 KiB file that are never read cost a bounded amount of memory")
    func pipelinedFloodIsBounded() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.largeFile)
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1", "--access-log", "off"])
        defer { _ = server.stop() }
        let request = "GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n"
        #expect(try RawClient.exchange(port: server.port, Self.closing(request)).hasPrefix("HTTP/1.1 200 OK"))
        let before = Self.residentKiB(server)
        let clients = try Self.pipelineAndNeverRead(port: server.port, clients: 20, request: request, bytes: 65_536)
        defer { withExtendedLifetime(clients) {} }
        // Each client has had its first answers (the rest wait for it to read).
        #expect(eventually(10) { Self.answered(server) >= 1 + 20 * 2 })
        let grown = Self.peakResidentKiB(server, over: 1) - before
        // What the kernel's socket buffers take is answered too; the rest waits.
        let answered = Self.answered(server)
        print("pipelinedFloodIsBounded: resident +\(grown) KiB, \(answered) requests answered")
        // 64 KiB each would be about 800 answers of 110 KiB (1.4 GiB for 20 clients); the
        // high-water mark keeps each to about 256 KiB queued plus one answer and one read.
        #expect(grown < 48 * 1024, "resident memory grew by \(grown) KiB")
        #expect(answered < 20 * 100, "answered \(answered) requests that nobody reads")
        // Another client is served meanwhile.
        #expect(try RawClient.exchange(port: server.port, Self.closing(request)).hasPrefix("HTTP/1.1 200 OK"))
    }

    @Test("pipelined requests over TLS that are never read cost a bounded amount of memory")
    func tlsFloodIsBounded() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("example.com", names: ["example.com"])
        try folder.write("sites/example.com/apple-app-site-association", Self.largeFile)
        let server = try RunningServer(
            in: folder.url,
            [
                "--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off", "--workers", "1",
                "--access-log", "off",
            ])
        defer { _ = server.stop() }
        let before = Self.residentKiB(server)
        let flood = try PeerProcess(
            script: "pipeline-flood.py",
            arguments: [
                String(server.port), "10", "65536", "example.com", "/.well-known/apple-app-site-association", "--tls",
                certificates.caFile,
            ])
        defer { flood.stop() }
        #expect(eventually(20) { flood.output.contains("started") }, "the TLS clients did not connect")
        let grown = Self.peakResidentKiB(server, over: 2) - before
        print("tlsFloodIsBounded: resident +\(grown) KiB")
        // Unbounded: about 800 answers of 110 KiB per client (870 MiB for 10).
        #expect(grown < 48 * 1024, "resident memory grew by \(grown) KiB")
    }

    @Test("pipelined status pages that are never read cost a bounded amount of memory on the admin listener")
    func adminFloodIsBounded() throws {
        let folder = try TemporaryFolder()
        // Forty sites make a status page of about 20 KiB.
        let file = SiteFixtures.oneAppAASA(paths: "/a/*")
        for index in 0..<40 {
            try folder.write("sites/site\(index).example/apple-app-site-association", file)
        }
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1", "--access-log", "off"])
        defer { _ = server.stop() }
        let admin = try #require(server.adminPort)
        let request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let page = try RawClient.exchange(port: admin, Self.closing(request))
        #expect(page.hasPrefix("HTTP/1.1 200 OK"))
        let before = Self.residentKiB(server)
        let clients = try Self.pipelineAndNeverRead(port: admin, clients: 10, request: request, bytes: 65_536)
        defer { withExtendedLifetime(clients) {} }
        let grown = Self.peakResidentKiB(server, over: 2) - before
        print("adminFloodIsBounded: resident +\(grown) KiB, status page \(page.utf8.count) bytes")
        // Unbounded, each client's 1,800 pages would queue (page size × 1,800 × 10).
        #expect(grown < 32 * 1024, "resident memory grew by \(grown) KiB")
        #expect(try RawClient.exchange(port: admin, Self.closing(request)).hasPrefix("HTTP/1.1 200 OK"))
    }

    @Test("clients streaming empty lines neither grow memory nor delay another client")
    func blankLineStream() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.largeFile)
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1", "--access-log", "off"])
        defer { _ = server.stop() }
        let request =
            "GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n"
            + "Connection: close\r\n\r\n"
        #expect(try RawClient.exchange(port: server.port, request).hasPrefix("HTTP/1.1 200 OK"))
        let before = Self.residentKiB(server)
        let port = server.port
        let attackers = try Self.startBlankLineStream(port: port, seconds: 4)
        defer { attackers.stop() }
        let streaming = Date().addingTimeInterval(4)
        var worst = 0.0
        var served = 0
        while Date() < streaming {
            let started = Date()
            let answer = try? RawClient.exchange(port: port, request, timeout: 3)
            worst = max(worst, Date().timeIntervalSince(started))
            if answer?.hasPrefix("HTTP/1.1 200 OK") == true { served += 1 }
            usleep(200_000)  // the attack's cadence: a request every 0.2 s
        }
        let grown = Self.peakResidentKiB(server, over: 0.2) - before
        print(
            "blankLineStream: worst \(Int(worst * 1000)) ms over \(served) requests, +\(grown) KiB, "
                + attackers.output.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(served >= 10)
        // On a 2-core machine the eight attackers and the test share the server's cores; the
        // point is that no client waits for an attacker's stream to end (3 s and more before).
        #expect(worst < 1, "the other client waited \(Int(worst * 1000)) ms")
        #expect(grown < 32 * 1024, "resident memory grew by \(grown) KiB")
    }

    /// `Tests/Peers/blank-line-stream.py`: eight clients streaming CR LF for `seconds`.
    static func startBlankLineStream(port: Int, seconds: Int) throws -> PeerProcess {
        let peer = try PeerProcess(
            script: "blank-line-stream.py", arguments: [String(port), String(seconds)])
        #expect(eventually(10) { peer.output.contains("started") })
        return peer
    }

    @Test("a head trickled without end is closed at the head deadline")
    func trickledHeadDeadline() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.largeFile)
        try folder.write("config.json", #"{"timeouts": {"requestHead": 1}}"#)
        let server = try RunningServer(in: folder.url, ["--config", "config.json", "--sites", "sites"])
        defer { _ = server.stop() }
        let client = try RawClient(port: server.port, receiveTimeout: 0.05)
        client.send("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.com\r\nX: ")
        let started = Date()
        var closed = false
        var buffer = [UInt8](repeating: 0, count: 1024)
        // A byte every 50 ms: progress of a sort, never a whole head.
        while !closed && Date().timeIntervalSince(started) < 5 {
            client.send("y")
            closed = client.receive(into: &buffer) == 0
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(closed, "still open after \(elapsed) s")
        #expect(elapsed < 2.5, "closed after \(elapsed) s")
    }
}
