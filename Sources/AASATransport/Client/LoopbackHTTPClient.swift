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

    /// GET `path` from `address` with the given header fields; `host` is the Host field
    /// (the address itself when nil).
    public func get(
        _ path: String, from address: SocketAddress, host: String? = nil, headers: [(String, String)] = []
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
        do throws(SystemError) {
            try connect(fd, to: address, until: deadline)
        } catch {
            return .failure(HTTPClientFailure(stage: .tcp, message: "cannot connect to \(address): \(error)"))
        }
        var head = "GET \(path) HTTP/1.1\r\nHost: \(host ?? address.description)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        var request = Array((head + "Connection: close\r\n\r\n").utf8)[...]
        do throws(SystemError) {
            while !request.isEmpty {
                let sent = request.withUnsafeBytes { bytes in
                    Result { () throws(SystemError) in try Posix.send(fd, bytes) }
                }
                switch try sent.get() {
                case .processed(let count): request = request.dropFirst(count)
                case .wouldBlock:
                    guard try wait(fd, events: Int16(POLLOUT), until: deadline) else { return .failure(late()) }
                }
            }
        } catch {
            return .failure(HTTPClientFailure(stage: .http, message: "the request could not be sent: \(error)"))
        }
        var reader = HTTPResponseReader()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            do throws(SystemError) {
                guard try wait(fd, events: Int16(POLLIN), until: deadline) else { return .failure(late()) }
            } catch {
                return .failure(HTTPClientFailure(stage: .http, message: "\(error)"))
            }
            let received = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemError) in try Posix.read(fd, into: bytes) }
            }
            do {
                switch received {
                case .success(.wouldBlock): continue
                case .success(.processed(0)), .failure:
                    // A close, clean or not, ends the response; what arrived is judged as it is.
                    return .success(try reader.finish())
                case .success(.processed(let count)):
                    if let response = try reader.feed(buffer[..<count]) { return .success(response) }
                }
            } catch {
                return .failure(error)
            }
        }
    }

    private func late() -> HTTPClientFailure {
        HTTPClientFailure(stage: .http, message: "no complete answer within \(timeout) s")
    }

    /// connect(2) of the non-blocking socket (`Posix.socket`) to `address`, within `deadline`.
    private func connect(_ fd: Int32, to address: SocketAddress, until deadline: UInt64) throws(SystemError) {
        let connected = address.withSockAddr { pointer, length in
            Result { () throws(SystemError) in try Posix.connect(fd, pointer, length) }
        }
        guard try !connected.get() else { return }
        guard try wait(fd, events: Int16(POLLOUT), until: deadline) else {
            throw SystemError("connect", errno: ETIMEDOUT)
        }
        try Posix.checkConnected(fd)
    }

    /// poll(2) for `events` until `deadline`; false when it passed (EINTR waits again for the
    /// time that remains, `Posix.poll`).
    private func wait(_ fd: Int32, events: Int16, until deadline: UInt64) throws(SystemError) -> Bool {
        while MonotonicClock.now() < deadline {
            if try Posix.poll(fd, events: events, milliseconds: { HTTPSClient.milliseconds(until: deadline) }) != 0 {
                return true
            }
        }
        return false
    }
}
