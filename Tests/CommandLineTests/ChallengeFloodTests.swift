import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// A stranger flooding a replica with made-up ACME challenge tokens for a host it serves does
/// not keep the CA's check of another replica's challenge from being answered
/// (docs/security.md, "Work a stranger can queue"). The real binary with `--acme on` and the
/// folder store; the other replica's challenge is written to the store as `StoreChallenges`
/// writes it (`challenges/http-01/TOKEN`: the name, a line break, the key authorization); the
/// flood comes from 127.0.0.1 on 32 pipelining connections, the CA's check from 127.0.0.2.
@Suite("ACME challenge lookups under a flood of made-up tokens", .serialized)
struct ChallengeFloodTests {
    static let host = "check.flood.test"

    /// Made-up, well-formed tokens (43 base64url characters), pipelined 8 at a time on each
    /// of `connections` connections, answers read and dropped, on a thread of the test.
    final class Flood: @unchecked Sendable {
        private let lock = NSLock()
        private var stopping = false
        private var count = 0
        private let done = DispatchSemaphore(value: 0)

        var sent: Int { lock.withLock { count } }

        init(port: Int, connections: Int) throws {
            let descriptors = try (0..<connections).map { _ in try LoopbackSocket.connect(port: port) }
            let thread = Thread { [self] in
                var next = 0
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                while !lock.withLock({ stopping }) {
                    for fd in descriptors {
                        var batch = ""
                        for _ in 0..<8 {
                            let token = String(format: "%043d", next)
                            next += 1
                            batch += "GET /.well-known/acme-challenge/\(token) HTTP/1.1\r\nHost: \(host)\r\n\r\n"
                        }
                        _ = Array(batch.utf8).withUnsafeBytes {
                            Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                        }
                        _ = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    }
                    lock.withLock { count = next }
                    usleep(1000)
                }
                for fd in descriptors { Glibc.close(fd) }
                done.signal()
            }
            thread.start()
        }

        func stop() {
            lock.withLock { stopping = true }
            done.wait()
        }
    }

    /// Writes a challenge to the folder store as another replica's `StoreChallenges.post` does
    /// (a temporary file renamed into place).
    static func post(_ token: String, keyAuthorization: String, store: URL) throws {
        let folder = store.appendingPathComponent("challenges/http-01")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(".post-\(token)")
        try Data("\(host)\n\(keyAuthorization)".utf8).write(to: temporary)
        try #require(rename(temporary.path, folder.appendingPathComponent(token).path) == 0, "rename: errno \(errno)")
    }

    static func metric(_ text: String, _ series: String) -> Int {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap {
            Double($0.dropFirst(series.count + 1))
        }.map { Int($0) } ?? 0
    }

    /// Whether this user may add an inotify watch now (fs.inotify.max_user_watches not spent
    /// by other processes): the server watches the store's challenge folders with two.
    static var inotifyWatchAvailable: Bool {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return inotify_add_watch(fd, NSTemporaryDirectory(), UInt32(IN_CREATE)) >= 0
    }

    @Test(
        "32 connections pipelining made-up tokens: another replica's challenge is read ahead and answered",
        .enabled(if: inotifyWatchAvailable, "needs inotify watches (fs.inotify.max_user_watches is spent)"))
    func flood() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/*.flood.test/apple-app-site-association", ProbeTests.apple)
        try folder.folder("certs")
        let store = folder.url.appendingPathComponent("certs/acme")
        let early = String(repeating: "E", count: 43)
        // Posted before this replica started: no notice, so its check is looked up.
        try Self.post(early, keyAuthorization: "\(early).thumb", store: store)
        try #require(chmod(store.path, 0o700) == 0)
        // Nothing to order: a wildcard site without on-demand names; the CA is never reached.
        let server = try RunningServer(
            in: folder.url,
            [
                "--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--access-log", "off", "--acme", "on",
                "--acme-directory", "https://127.0.0.1:9/directory", "--acme-email", "ops@example.com",
                "--acme-on-demand", "off",
            ])
        defer { _ = server.stop() }
        let admin = try #require(server.adminPort)
        func metrics() throws -> String {
            String(decoding: try Curl.request("http://127.0.0.1:\(admin)/metrics").body, as: UTF8.self)
        }
        func check(_ token: String) throws -> Curl.Response {
            try Curl.request(
                "http://\(Self.host):\(server.port)/.well-known/acme-challenge/\(token)",
                ["--interface", "127.0.0.2", "--resolve", "\(Self.host):\(server.port):127.0.0.1", "-m", "5"])
        }
        let flood = try Flood(port: server.port, connections: 32)
        defer { flood.stop() }
        #expect(eventually(20) { flood.sent >= 5_000 })
        let refusedBefore = Self.metric(try metrics(), "aasa_acme_challenge_lookups_total{result=\"refused\"}")

        // Another replica posts while the flood goes on: read ahead on its inotify notice.
        let token = String(repeating: "R", count: 43)
        try Self.post(token, keyAuthorization: "\(token).thumb", store: store)
        let prefetched = "aasa_acme_challenge_lookups_total{result=\"prefetched\"}"
        #expect(try eventually(10) { Self.metric(try metrics(), prefetched) == 1 }, "\(server.errors)")
        let found = "aasa_acme_challenge_lookups_total{result=\"found\"}"
        let foundBefore = Self.metric(try metrics(), found)
        // The CA checks three times, as Pebble does: each answered, none looked up.
        for _ in 0..<3 {
            let answer = try check(token)
            #expect(answer.status == 200)
            #expect(String(decoding: answer.body, as: UTF8.self) == "\(token).thumb")
        }
        #expect(Self.metric(try metrics(), found) == foundBefore)
        // The challenge posted before the start: looked up within the CA's own share.
        let answer = try check(early)
        #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self) == "\(early).thumb")

        let text = try metrics()
        let refused = Self.metric(text, "aasa_acme_challenge_lookups_total{result=\"refused\"}")
        print(
            "challenge flood: \(flood.sent) made-up tokens sent, \(refused) refused at the share (\(refusedBefore) "
                + "before the post), \(Self.metric(text, "aasa_acme_challenge_lookups_total{result=\"absent\"}")) "
                + "looked up, \(Self.metric(text, prefetched)) read ahead")
        #expect(flood.sent > 5_000)
    }
}
