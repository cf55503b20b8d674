@preconcurrency import Glibc
import Testing

@testable import AASATransport

/// Listening addresses as the flags give them (`--http 127.0.0.1:8080`, `[::1]:8443`, `*:80`).
@Suite("socket addresses")
struct SocketAddressTests {
    @Test(
        "ADDRESS:PORT parsed, shown back, and loopback known",
        arguments: [
            ("127.0.0.1:8080", "127.0.0.1:8080", true), ("localhost:80", "127.0.0.1:80", true),
            ("*:443", "0.0.0.0:443", false), (":443", "0.0.0.0:443", false), ("[::1]:8443", "[::1]:8443", true),
            ("[::]:0", "[::]:0", false), ("[2001:db8::1]:65535", "[2001:db8::1]:65535", false),
            ("127.255.0.9:1", "127.255.0.9:1", true), ("10.0.0.1:22", "10.0.0.1:22", false),
        ])
    func parsed(_ text: String, _ shown: String, _ loopback: Bool) throws {
        let address = try SocketAddress(parsing: text)
        #expect(address.description == shown)
        #expect(address.isLoopback == loopback)
        #expect(try SocketAddress(parsing: address.description) == address)
    }

    @Test(
        "anything else is a parse error, never a name lookup",
        arguments: [
            "", "8080", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "example.com:80",
            "256.0.0.1:80", "[::1:80", "::1]:80", "[::1]:80x", "127.0.0.1:８０", "127.0.0.1:+80",
        ])
    func refused(_ text: String) {
        #expect(throws: SocketAddress.ParseError.self) { try SocketAddress(parsing: text) }
    }

    @Test("the sockaddr written for bind is read back as the same address", arguments: ["127.0.0.1:8080", "[::1]:443"])
    func sockaddrRoundTrip(_ text: String) throws {
        let address = try SocketAddress(parsing: text)
        let storage = address.withSockAddr { pointer, length in
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) {
                $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: Int(length)))
            }
            return storage
        }
        #expect(SocketAddress(storage) == address)
        #expect(address.with(port: 9).port == 9 && address.with(port: 9).bytes == address.bytes)
    }
}
