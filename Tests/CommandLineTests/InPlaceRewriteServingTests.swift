import Foundation
@preconcurrency import Glibc
import Synchronization
import TestSupport
import Testing

/// A deploy that rewrites a served file in place (pwrite(2) over it, no rename) while the
/// server reloads it: what is served is always one version someone wrote, never a mix.
@Suite("serving a file rewritten in place")
struct InPlaceRewriteServingTests {
    final class Stop: Sendable {
        let flag = Atomic<Bool>(false)
    }

    @Test("under a writer alternating two versions in place, every answer is one of them whole")
    func neverServesAMix() throws {
        let first = Array(SiteFixtures.oneAppAASA(path: "/" + String(repeating: "a", count: 100_000)).utf8)
        let second = Array(SiteFixtures.oneAppAASA(path: "/" + String(repeating: "b", count: 100_000)).utf8)
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "sites/example.com/apple-app-site-association", String(decoding: first, as: UTF8.self))
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1", "--access-log", "off"])
        defer { _ = server.stop() }
        let writer = open(path, O_WRONLY | O_CLOEXEC)
        #expect(writer >= 0)
        defer { close(writer) }
        let stop = Stop()
        let thread = Thread {
            var flip = false
            while !stop.flag.load(ordering: .relaxed) {
                _ = (flip ? first : second).withUnsafeBytes { pwrite(writer, $0.baseAddress, $0.count, 0) }
                flip.toggle()
            }
        }
        thread.start()
        var (whole, mixed) = (0, 0)
        let deadline = Date().addingTimeInterval(4)
        while Date() < deadline {
            let client = try RawClient(port: server.port, receiveTimeout: 5)
            client.send("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n")
            guard let answer = RawClient.readResponse(client), let split = answer.range(of: "\r\n\r\n") else {
                Issue.record("no answer")
                break
            }
            let body = Array(answer[split.upperBound...].utf8)
            if body == first || body == second { whole += 1 } else { mixed += 1 }
        }
        stop.flag.store(true, ordering: .relaxed)
        #expect(eventually(5) { thread.isFinished })
        #expect(mixed == 0, "\(mixed) answers were a mix of the two versions, \(whole) whole")
        print("neverServesAMix: \(whole) whole, \(mixed) mixed")
        // Written no more, the last version is served once the reload after the last write runs.
        let current = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(current == first || current == second)
        #expect(
            eventually(10) {
                guard let client = try? RawClient(port: server.port, receiveTimeout: 5) else { return false }
                client.send("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n")
                guard let answer = RawClient.readResponse(client), let split = answer.range(of: "\r\n\r\n") else {
                    return false
                }
                return Array(answer[split.upperBound...].utf8) == current
            })
    }
}
