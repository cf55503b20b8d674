import AASASystem
import Glibc

/// A plain HTTP/1.1 GET to a server of ours on this machine (the admin listener, for
/// `aasa-server reload`): one request, `Connection: close`, read until the response is
/// complete or the deadline passes. Bounded as the HTTPS client is (`HTTPResponseReader`).
public struct LoopbackHTTPClient: Sendable {
    public let timeout: Double

    public init(timeout: Double) {
        self.timeout = timeout
    }

    /// GET `path` from `address` with the given header fields.
    public func get(
        _ path: String, from address: SocketAddress, headers: [(String, String)] = []
    ) -> Result<HTTPClientResponse, HTTPClientFailure> {
        let deadline = MonotonicClock.now() + UInt64(timeout * 1_000_000_000)
        let fd: Int32
        do {
            let domain = address.family == .ipv4 ? AF_INET : AF_INET6
            fd = try Posix.socket(domain: domain, type: Int32(SOCK_STREAM.rawValue))
        } catch {
            return .failure(HTTPClientFailure(stage: .tcp, message: "\(error)"))
        }
        defer { Posix.close(fd) }
        guard wait(fd, events: Int16(POLLOUT), until: deadline, connecting: address) else {
            return .failure(HTTPClientFailure(stage: .tcp, message: "cannot connect to \(address)"))
        }
        var head = "GET \(path) HTTP/1.1\r\nHost: \(address)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        var request = Array((head + "Connection: close\r\n\r\n").utf8)[...]
        while !request.isEmpty {
            let sent = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                request = request.dropFirst(sent)
            } else if sent < 0 && (errno == EAGAIN || errno == EINTR) {
                guard wait(fd, events: Int16(POLLOUT), until: deadline) else { return .failure(late()) }
            } else {
                return .failure(HTTPClientFailure(stage: .http, message: "the request could not be sent"))
            }
        }
        var reader = HTTPResponseReader()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            guard wait(fd, events: Int16(POLLIN), until: deadline) else { return .failure(late()) }
            let count = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            do {
                if count > 0, let response = try reader.feed(buffer[..<count]) { return .success(response) }
                if count <= 0 { return .success(try reader.finish()) }
            } catch {
                return .failure(error)
            }
        }
    }

    private func late() -> HTTPClientFailure {
        HTTPClientFailure(stage: .http, message: "no complete answer within \(timeout) s")
    }

    /// poll(2) for `events` until `deadline`, after connect(2) to `connecting` when given (the
    /// socket is non-blocking, `Posix.socket`); false when the deadline passed or the socket failed (EINTR waits again).
    private func wait(_ fd: Int32, events: Int16, until deadline: UInt64, connecting: SocketAddress? = nil) -> Bool {
        if let address = connecting {
            let result = address.withSockAddr { Glibc.connect(fd, $0, $1) }
            if result != 0 && errno != EINPROGRESS { return false }
        }
        while true {
            let now = MonotonicClock.now()
            guard now < deadline else { return false }
            var poller = pollfd(fd: fd, events: events, revents: 0)
            let result = poll(&poller, 1, Int32(clamping: (deadline - now + 999_999) / 1_000_000))
            if result > 0 {
                guard connecting != nil else { return true }
                var socketError: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                return getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length) == 0 && socketError == 0
            }
            if result < 0 && errno != EINTR { return false }
        }
    }
}
