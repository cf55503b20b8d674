import Foundation
@preconcurrency import Glibc
import TestSupport

/// A DNS server on 127.0.0.1 for the client's tests: UDP and TCP on one port; `udp` and `tcp`
/// make the datagrams (or the stream's message) sent back for each query received. Counts the
/// queries it saw. Stopped when released.
final class FakeDNSServer: @unchecked Sendable {
    let port: Int
    private let udpSocket: Int32
    private let tcpSocket: Int32
    private let lock = NSLock()
    private var stopping = false
    private var seen: [String: Int] = ["udp": 0, "tcp": 0]
    private let done = DispatchGroup()

    var queries: [String: Int] { lock.withLock { seen } }

    struct Failure: Error {
        var description: String
    }

    init(
        udp: @escaping @Sendable ([UInt8]) -> [[UInt8]], tcp: @escaping @Sendable ([UInt8]) -> [UInt8]? = { _ in nil }
    ) throws {
        (tcpSocket, port) = try LoopbackSocket.listen()
        udpSocket = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(udpSocket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw Failure(description: "bind udp \(port): \(errno)") }
        done.enter()
        Thread.detachNewThread { [self] in
            serveUDP(udp)
            done.leave()
        }
        done.enter()
        Thread.detachNewThread { [self] in
            serveTCP(tcp)
            done.leave()
        }
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private func count(_ kind: String) { lock.withLock { seen[kind, default: 0] += 1 } }

    private func serveUDP(_ respond: @Sendable ([UInt8]) -> [[UInt8]]) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !isStopping {
            var poller = pollfd(fd: udpSocket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let received = withUnsafeMutablePointer(to: &peer) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    buffer.withUnsafeMutableBytes { recvfrom(udpSocket, $0.baseAddress, $0.count, 0, address, &length) }
                }
            }
            guard received > 0 else { continue }
            count("udp")
            for datagram in respond(Array(buffer[..<received])) {
                _ = withUnsafePointer(to: &peer) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                        datagram.withUnsafeBytes { sendto(udpSocket, $0.baseAddress, $0.count, 0, address, length) }
                    }
                }
            }
        }
    }

    private func serveTCP(_ respond: @Sendable ([UInt8]) -> [UInt8]?) {
        while !isStopping {
            var poller = pollfd(fd: tcpSocket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let client = accept(tcpSocket, nil, nil)
            guard client >= 0 else { continue }
            defer { close(client) }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while received.count < 2 || received.count < 2 + (Int(received[0]) << 8 | Int(received[1])) {
                let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                received += buffer[..<count]
            }
            guard received.count >= 2 else { continue }
            count("tcp")
            guard let answer = respond(Array(received.dropFirst(2))) else { continue }
            let framed = [UInt8(answer.count >> 8), UInt8(answer.count & 0xFF)] + answer
            _ = framed.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    deinit {
        lock.withLock { stopping = true }
        done.wait()
        close(udpSocket)
        close(tcpSocket)
    }
}
