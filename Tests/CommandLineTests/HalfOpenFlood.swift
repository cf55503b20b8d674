import Foundation
@preconcurrency import Glibc
import TestSupport

/// Connections that each send one real ClientHello and never go on with the handshake, as
/// the attack of docs/security.md, "Connections and handshakes in total", sends them.
final class HalfOpenFlood {
    private(set) var descriptors: [Int32] = []

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Opens `count` connections to the loopback `port` and sends `clientHello` on each.
    init(port: Int, count: Int, clientHello: [UInt8]) throws {
        descriptors.reserveCapacity(count)
        for _ in 0..<count {
            let fd = try Self.connect(port: port)
            descriptors.append(fd)
            let sent = clientHello.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent == clientHello.count else { throw Failure(description: "send: errno \(errno)") }
        }
    }

    /// Closes every connection (a reset: the server sees them go at once).
    func close() {
        for fd in descriptors {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            Glibc.close(fd)
        }
        descriptors = []
    }

    deinit { close() }

    private static func connect(port: Int) throws -> Int32 {
        try LoopbackSocket.connect(port: port)
    }

    /// The first record `openssl s_client` sends for `serverName`: a real ClientHello (TLS
    /// 1.3 and 1.2, with a key share), read on a loopback listener of our own.
    static func captureClientHello(serverName: String) throws -> [UInt8] {
        let (listener, port) = try LoopbackSocket.listen(backlog: 1)
        defer { Glibc.close(listener) }
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = ["openssl", "s_client", "-connect", "127.0.0.1:\(port)", "-servername", serverName]
        // An open, silent stdin keeps s_client waiting for the server's answer.
        let input = Pipe()
        client.standardInput = input
        client.standardOutput = FileHandle.nullDevice
        client.standardError = FileHandle.nullDevice
        try client.run()
        defer {
            client.terminate()
            client.waitUntilExit()
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(listener, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { throw Failure(description: "openssl s_client did not connect") }
        defer { Glibc.close(connection) }
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // A TLS record: type, version, a 2-byte length (RFC 8446 §5.1), then that many bytes.
        let header = try read(connection, count: 5)
        guard header[0] == 22 else { throw Failure(description: "not a handshake record: \(header)") }
        return header + (try read(connection, count: Int(header[3]) << 8 | Int(header[4])))
    }

    private static func read(_ fd: Int32, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress.map { $0 + done }, count - done, 0) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw Failure(description: "the ClientHello ended early") }
            done += got
        }
        return bytes
    }
}
