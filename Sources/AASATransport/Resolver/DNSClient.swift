import AASASystem
@preconcurrency import Glibc

/// A stub resolver for one server (`--acme-preflight-resolver`): A and AAAA queries over UDP
/// (RFC 1035 §4.2.1), each with a random id from the system's generator and the kernel's
/// random source port; a datagram that is not the answer to the question (another id, another
/// question, malformed) is ignored and the wait goes on until the deadline; a truncated answer
/// is asked again over TCP (§4.2.2, two-byte length prefix). Every query ends within `timeout`
/// seconds, tried `tries` times over UDP. Blocking: run on a worker thread.
public struct DNSClient: Sendable {
    public let server: SocketAddress
    public let timeout: Double
    public let tries: Int

    public init(server: SocketAddress, timeout: Double = 2, tries: Int = 2) {
        self.server = server
        self.timeout = timeout
        self.tries = tries
    }

    /// Why a query found nothing usable.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
        /// The server said the name does not exist (NXDOMAIN): no other type is asked for.
        public var noSuchName = false
    }

    /// The name's addresses of `type`, after any CNAMEs in the answer; `queries` counts the
    /// messages sent (a retry and a TCP query count too).
    public func addresses(
        of name: String, type: DNSMessage.RecordType, queries: inout Int
    ) -> Result<[[UInt8]], Failure> {
        var last = Failure(description: "no answer from \(server)")
        for _ in 0..<max(tries, 1) {
            let id = UInt16.random(in: 0...UInt16.max)
            guard let query = DNSMessage.query(id: id, name: name, type: type) else {
                return .failure(Failure(description: "\"\(name)\" is not a name DNS can ask for"))
            }
            queries += 1
            var answer = exchange(query, id: id, name: name, type: type, tcp: false)
            if case .success(.truncated) = answer {
                queries += 1
                answer = exchange(query, id: id, name: name, type: type, tcp: true)
            }
            switch answer {
            case .success(.addresses(let found)): return .success(found)
            case .success(.noSuchName):
                return .failure(Failure(description: "\(server): no such name (NXDOMAIN)", noSuchName: true))
            case .success(.failed(let rcode)):
                last = Failure(description: "\(server) answered RCODE \(rcode)")
            case .success(.truncated):
                return .failure(Failure(description: "\(server): the answer is truncated even over TCP"))
            case .success(.unrelated(let why)): last = Failure(description: "\(server): \(why)")
            case .failure(let failure): last = failure
            }
        }
        return .failure(last)
    }

    /// One query and its answer, over UDP or TCP, within `timeout`.
    func exchange(
        _ query: [UInt8], id: UInt16, name: String, type: DNSMessage.RecordType, tcp: Bool
    ) -> Result<DNSMessage.Answer, Failure> {
        let deadline = MonotonicClock.now() + UInt64(timeout * 1_000_000_000)
        let domain = server.family == .ipv4 ? AF_INET : AF_INET6
        let kind = tcp ? Int32(SOCK_STREAM.rawValue) : Int32(SOCK_DGRAM.rawValue)
        let fd: Int32
        do { fd = try Posix.socket(domain: domain, type: kind) } catch {
            return .failure(Failure(description: "\(error)"))
        }
        defer { Posix.close(fd) }
        do throws(SystemError) {
            // A connected UDP socket takes datagrams from the server's address and port only.
            let connected = server.withSockAddr { pointer, length in
                Result { () throws(SystemError) in try Posix.connect(fd, pointer, length) }
            }
            if try !connected.get() {
                guard try wait(fd, Int16(POLLOUT), deadline) else { return .failure(late(tcp)) }
                try Posix.checkConnected(fd)
            }
            let message = tcp ? [UInt8(query.count >> 8), UInt8(query.count & 0xFF)] + query : query
            guard try send(fd, message, deadline) else { return .failure(late(tcp)) }
            if tcp {
                guard let answer = try receiveStream(fd, deadline) else { return .failure(late(tcp)) }
                return .success(DNSMessage.answer(answer, id: id, name: name, type: type))
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            while try wait(fd, Int16(POLLIN), deadline) {
                let received = buffer.withUnsafeMutableBytes { bytes in
                    Result { () throws(SystemError) in try Posix.receive(fd, into: bytes) }
                }
                // ECONNREFUSED: an ICMP port unreachable; nothing listens there.
                if case .failure(let error) = received, error.errno == ECONNREFUSED {
                    return .failure(Failure(description: "\(server) refused (nothing listens there)"))
                }
                if case .failure(let error) = received {
                    return .failure(Failure(description: "\(server): \(error)"))
                }
                guard case .success(.processed(let count)) = received, count > 0 else { continue }
                let answer = DNSMessage.answer(Array(buffer[..<count]), id: id, name: name, type: type)
                if case .unrelated = answer { continue }
                return .success(answer)
            }
            return .failure(late(tcp))
        } catch {
            return .failure(Failure(description: "\(server): \(error)"))
        }
    }

    private func late(_ tcp: Bool) -> Failure {
        Failure(description: "no answer from \(server) over \(tcp ? "TCP" : "UDP") within \(timeout) s")
    }

    private func send(_ fd: Int32, _ message: [UInt8], _ deadline: UInt64) throws(SystemError) -> Bool {
        var rest = message[...]
        while !rest.isEmpty {
            let sent = rest.withUnsafeBytes { bytes in Result { () throws(SystemError) in try Posix.send(fd, bytes) } }
            switch try sent.get() {
            case .processed(let count): rest = rest.dropFirst(count)
            case .wouldBlock: guard try wait(fd, Int16(POLLOUT), deadline) else { return false }
            }
        }
        return true
    }

    /// A TCP answer: its two-byte length, then that many bytes (at most 65,535 by construction).
    private func receiveStream(_ fd: Int32, _ deadline: UInt64) throws(SystemError) -> [UInt8]? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if received.count >= 2 {
                let length = Int(received[0]) << 8 | Int(received[1])
                if received.count >= 2 + length { return Array(received[2..<(2 + length)]) }
            }
            guard try wait(fd, Int16(POLLIN), deadline) else { return nil }
            let read = try buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemError) in try Posix.receive(fd, into: bytes) }
            }.get()
            guard case .processed(let count) = read else { continue }
            if count == 0 { return nil }
            received += buffer[..<count]
        }
    }

    /// poll(2) until `deadline`; false when it passed.
    private func wait(_ fd: Int32, _ events: Int16, _ deadline: UInt64) throws(SystemError) -> Bool {
        while MonotonicClock.now() < deadline {
            if try Posix.poll(fd, events: events, milliseconds: { HTTPSClient.milliseconds(until: deadline) }) != 0 {
                return true
            }
        }
        return false
    }
}
