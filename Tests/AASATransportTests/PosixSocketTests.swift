import AASASystem
@preconcurrency import Glibc
import Testing

@testable import AASATransport

/// The errno-exact wrappers: EINTR is retried, EAGAIN is `.wouldBlock`, any other errno is
/// reported with its call, read at once (errno(3)); and real calls on loopback sockets.
@Suite("Posix socket wrappers")
struct PosixSocketTests {
    /// A call that fails with each errno of `failures` in turn, then returns `result`.
    final class Scripted {
        var failures: [Int32]
        var calls = 0

        init(_ failures: [Int32]) { self.failures = failures }

        func call(_ result: Int32) -> Int32 {
            calls += 1
            guard !failures.isEmpty else { return result }
            Glibc.errno = failures.removeFirst()
            return -1
        }
    }

    @Test(
        "check: EINTR retried, other errnos thrown with the call's name",
        arguments: [
            ([Int32](), 7, nil as Int32?, 1), ([EINTR], 7, nil, 2), ([EINTR, EINTR, EINTR], 0, nil, 4),
            ([EACCES], 7, EACCES, 1), ([EINTR, EADDRINUSE], 7, EADDRINUSE, 2), ([EAGAIN], 7, EAGAIN, 1),
        ])
    func check(_ failures: [Int32], _ result: Int32, _ thrown: Int32?, _ calls: Int) {
        let scripted = Scripted(failures)
        do {
            let value = try Posix.check("bind") { scripted.call(result) }
            #expect(thrown == nil && value == result)
        } catch {
            #expect(error.errno == thrown && error.call == "bind")
        }
        #expect(scripted.calls == calls)
    }

    @Test(
        "checkNonBlocking: EAGAIN is wouldBlock, EINTR retried, others thrown",
        arguments: [
            ([Int32](), "processed 5", 1), ([EAGAIN], "wouldBlock", 1), ([EWOULDBLOCK], "wouldBlock", 1),
            ([EINTR, EAGAIN], "wouldBlock", 2), ([EINTR], "processed 5", 2), ([ECONNRESET], "read: ECONNRESET", 1),
        ])
    func checkNonBlocking(_ failures: [Int32], _ expected: String, _ calls: Int) {
        let scripted = Scripted(failures)
        let outcome: String
        do {
            switch try Posix.checkNonBlocking("read", { Int(scripted.call(5)) }) {
            case .processed(let count): outcome = "processed \(count)"
            case .wouldBlock: outcome = "wouldBlock"
            }
        } catch {
            outcome = error.errno == ECONNRESET ? "\(error.call): ECONNRESET" : "\(error)"
        }
        #expect(outcome == expected)
        #expect(scripted.calls == calls)
    }

    @Test("a loopback listener: bound to port 0, its port read back, EADDRINUSE for a second bind")
    func listener() throws {
        let fd = try Posix.socket(domain: AF_INET, type: Int32(SOCK_STREAM.rawValue))
        defer { Posix.close(fd) }
        try Posix.bind(fd, .loopback(port: 0))
        try Posix.listen(fd, backlog: 8)
        let port = Posix.localPort(fd)
        #expect((1...65535).contains(port))
        let second = try Posix.socket(domain: AF_INET, type: Int32(SOCK_STREAM.rawValue))
        defer { Posix.close(second) }
        #expect {
            try Posix.bind(second, .loopback(port: port))
        } throws: { error in
            (error as? SystemError)?.errno == EADDRINUSE && (error as? SystemError)?.call == "bind"
        }
        // Nobody has connected: accept would block instead of waiting.
        var peer = sockaddr_storage()
        guard case .wouldBlock = try Posix.accept(fd, peer: &peer) else {
            Issue.record("accept on an empty queue did not say wouldBlock")
            return
        }
    }

    @Test("send and read over a socket pair: bytes through, then wouldBlock, then end of file")
    func socketPair() throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0)
        defer { Posix.close(fds[0]) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let read = { () throws -> IOResult<Int> in
            try buffer.withUnsafeMutableBytes { raw in try Posix.read(fds[0], into: raw) }
        }
        guard case .wouldBlock = try read() else {
            Issue.record("an empty socket did not say wouldBlock")
            return
        }
        let head = Array("HTTP/1.1 200 OK\r\n\r\n".utf8)
        let body = Array("{}".utf8)
        let sent = try head.withUnsafeBytes { first in
            try body.withUnsafeBytes { second in try Posix.send(fds[1], first, second) }
        }
        guard case .processed(let count) = sent, case .processed(let got) = try read() else {
            Issue.record("nothing sent or read")
            return
        }
        #expect(count == head.count + body.count && got == count)
        #expect(Array(buffer[..<got]) == head + body)
        Posix.close(fds[1])
        guard case .processed(0) = try read() else {
            Issue.record("no end of file after the peer closed")
            return
        }
    }
}
