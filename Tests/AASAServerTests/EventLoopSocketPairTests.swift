import AASASites
import AASASystem
import AASATransport
import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

@testable import AASALoop
@testable import AASAServer
@testable import AASASiteServing

/// One event loop in process, fed through socket pairs: what it answers must not depend on how
/// the bytes arrive or how slowly the peer reads.
@Suite("event loop over socket pairs")
struct EventLoopSocketPairTests {
    static let file = SiteFixtures.oneAppAASA(paths: "/a/*")
    static let pipelined =
        "GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n"
        + "HEAD /nothing HTTP/1.1\r\nHost: Example.COM.\r\n\r\n"
        + "GET /apple-app-site-association HTTP/1.1\r\nHost: example.com:80\r\nConnection: close\r\n\r\n"

    /// A loop serving one site (`example.com`), with `pairs` socket pairs adopted before it
    /// starts (adopting is the loop thread's work, so it happens before the thread exists).
    final class Harness {
        let control: LoopControl
        let clients: [Int32]
        let finished = DispatchSemaphore(value: 0)
        let folder: TemporaryFolder

        init(pairs: Int, serverSendBuffer: Int32? = nil, file: String = EventLoopSocketPairTests.file) throws {
            folder = try TemporaryFolder("aasa-loop")
            try folder.write("sites/example.com/apple-app-site-association", file)
            let snapshot = try #require(SnapshotLoader.load(folder.configuration(), previous: nil).snapshot)
            control = try LoopControl()
            let loop = try EventLoop(
                listener: -1, control: control, contents: SnapshotBox(snapshot.serving),
                handler: SiteHandler(acme: nil, appleFetches: nil, appleFetcherAgent: []),
                settings: LoopSettings(timeouts: Timeouts(), limits: HTTPLimits(), logFormat: .text, accessLog: false))
            var clients: [Int32] = []
            for _ in 0..<pairs {
                var ends: [Int32] = [0, 0]
                #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
                _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
                if var size = serverSendBuffer {
                    setsockopt(ends[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
                }
                loop.adopt(ends[0], peer: sockaddr_storage(), secure: false, now: MonotonicClock.now())
                clients.append(ends[1])
            }
            self.clients = clients
            nonisolated(unsafe) let running = loop
            let finished = self.finished
            Thread {
                running.run()
                finished.signal()
            }.start()
        }

        /// Everything the loop sends on `client` until it closes the connection (or 5 s pass).
        func readToEnd(_ client: Int32) -> [UInt8] {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) >= 0 else { break }
                let count = buffer.withUnsafeMutableBytes {
                    recv(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if count == 0 { break }
                if count > 0 { received += buffer[..<count] }
            }
            return received
        }

        func stop() {
            for client in clients { close(client) }
            control.stop()
            _ = finished.wait(timeout: .now() + 10)
        }
    }

    /// The responses without their `Date` lines, which may differ by a second.
    static func withoutDates(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("Date: ") }.joined(separator: "\r\n")
    }

    @Test("three pipelined requests split at every byte get the same three answers")
    func splitAtEveryByte() throws {
        let request = Array(Self.pipelined.utf8)
        let harness = try Harness(pairs: request.count)
        defer { harness.stop() }
        var answers: Set<String> = []
        for (split, client) in zip(1..<request.count, harness.clients) {
            request[..<split].withUnsafeBytes { _ = send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            request[split...].withUnsafeBytes { _ = send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            answers.insert(Self.withoutDates(harness.readToEnd(client)))
        }
        #expect(answers.count == 1, "the answer depended on where the request was split")
        let answer = try #require(answers.first)
        #expect(answer.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
        #expect(answer.contains("HTTP/1.1 404 Not Found"))
        #expect(answer.hasSuffix(Self.file))
    }

    @Test("a peer that does not read: the loop stops reading (backpressure), then answers every request")
    func backpressure() throws {
        let harness = try Harness(pairs: 1, serverSendBuffer: 4096)
        defer { harness.stop() }
        let client = harness.clients[0]
        let count = 4000
        let one = Array("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n".utf8)
        let last = Array(
            "GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n"
                .utf8)
        let all = Array(repeating: one, count: count - 1).flatMap { $0 } + last
        // Write without reading until the socket takes no more: the loop must have stopped
        // reading long before all requests are in (4,000 answers are about 2 MB).
        var offset = 0
        let deadline = Date().addingTimeInterval(5)
        while offset < all.count && Date() < deadline {
            let sent = all[offset...].withUnsafeBytes {
                send(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
                continue
            }
            var poller = pollfd(fd: client, events: Int16(POLLOUT), revents: 0)
            if poll(&poller, 1, 200) == 0 { break }
        }
        #expect(offset < all.count, "the loop read every request while its answers piled up")
        // Now read and write together: every request gets its answer, in order, whole.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let end = Date().addingTimeInterval(20)
        while Date() < end {
            var poller = pollfd(
                fd: client, events: Int16(POLLIN) | (offset < all.count ? Int16(POLLOUT) : 0), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { break }
            if offset < all.count {
                let sent = all[offset...].withUnsafeBytes {
                    send(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                }
                if sent > 0 { offset += sent }
            }
            let got = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if got == 0 { break }
            if got > 0 { received += buffer[..<got] }
        }
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 200 OK\r\n").count == count + 1)
        #expect(text.components(separatedBy: Self.file).count == count + 1)
        #expect(text.hasSuffix(Self.file))
    }

    @Test("large bodies sent from the file: whole and in order, however the socket takes them")
    func largeBodiesFromTheFile() throws {
        let components = (0..<3_000).map { #"{"/": "/p\#($0)/*"}"# }.joined(separator: ",")
        let file =
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": ["#
            + components + "]}]}}"
        let harness = try Harness(pairs: 1, serverSendBuffer: 4096, file: file)
        defer { harness.stop() }
        let get = "GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n"
        let requests =
            get + "HEAD /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n" + get + get
            + "GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n"
        let client = harness.clients[0]
        // Sent in two parts, the second while the first answers are still being written.
        let bytes = Array(requests.utf8)
        let split = get.utf8.count + 10
        bytes[..<split].withUnsafeBytes { _ = send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1000)
        var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        _ = poll(&poller, 1, 2000)
        let got = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if got > 0 { received += buffer[..<got] }
        bytes[split...].withUnsafeBytes { _ = send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        received += harness.readToEnd(client)
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 200 OK\r\n").count == 6)
        #expect(text.components(separatedBy: file).count == 5, "four whole bodies")
        #expect(text.hasSuffix(file))
    }
}
