import Foundation
@preconcurrency import Glibc
import TestSupport

/// A plain TCP client for what curl will not send: pipelined, malformed and slow requests.
final class RawClient {
    let fd: Int32

    struct Failure: Error {}

    /// Connects to the loopback port; `receiveBuffer` sets SO_RCVBUF before connecting, for a
    /// client that reads slowly.
    init(port: Int, receiveTimeout: Double = 5, receiveBuffer: Int32? = nil) throws {
        do {
            fd = try LoopbackSocket.connect(port: port, receiveBuffer: receiveBuffer)
        } catch {
            throw Failure()
        }
        var timeout = timeval(
            tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - Double(Int(receiveTimeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
    }

    /// Makes closing send a reset (SO_LINGER with a zero timeout, socket(7)): a client that
    /// goes away with requests unanswered.
    func resetOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// Whether the server sent bytes not read yet (recv(2) with MSG_PEEK, without blocking).
    var hasPendingBytes: Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0
    }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// recv(2), retried when a signal interrupts it: with SO_RCVTIMEO set it is never
    /// restarted (signal(7)), and the test process gets SIGCHLD whenever another test's
    /// server exits.
    func receive(into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// Reads until the server closes (or resets), or until the receive timeout passes.
    func readAll() -> (bytes: [UInt8], closedByServer: Bool) {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = receive(into: &buffer)
            if count > 0 {
                result += buffer[..<count]
            } else {
                // A reset is the server closing with our bytes unread: closed all the same.
                return (result, count == 0 || errno == ECONNRESET)
            }
        }
    }

    /// Reads one response with a Content-Length body; nil on a close or a timeout.
    static func readResponse(_ client: RawClient) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let headEnd = received.firstRange(of: [13, 10, 13, 10]) {
                let head = String(decoding: received[..<headEnd.lowerBound], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if received.count >= headEnd.upperBound + length {
                    return String(decoding: received[..<(headEnd.upperBound + length)], as: UTF8.self)
                }
            }
            let count = client.receive(into: &buffer)
            guard count > 0 else { return nil }
            received += buffer[..<count]
        }
    }

    /// Sends `text` and returns everything the server answered before closing.
    static func exchange(port: Int, _ text: String, timeout: Double = 5) throws -> String {
        let client = try RawClient(port: port, receiveTimeout: timeout)
        client.send(text)
        return String(decoding: client.readAll().bytes, as: UTF8.self)
    }
}

extension String {
    /// The status lines of every response in a raw exchange.
    var statusLines: [String] {
        // Split on bytes: as Characters, "\r\n" is one grapheme and never equals "\n".
        utf8.split(separator: UInt8(ascii: "\n")).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...], as: UTF8.self)
        }.filter { $0.hasPrefix("HTTP/1.1 ") }
    }
}
