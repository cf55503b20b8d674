@preconcurrency import Glibc
import Testing

@testable import AASATransport

/// Who sent a ClientHello, as the on-demand ask shares its turns (docs/security.md, "The
/// on-demand ask under a flood"): an IPv4 address whole, an IPv6 address by its /64.
@Suite("the client's source")
struct ClientSourceTests {
    static func key(_ text: String) throws -> UInt64 {
        let address = try SocketAddress(parsing: text)
        var storage = sockaddr_storage()
        address.withSockAddr { pointer, length in
            withUnsafeMutableBytes(of: &storage) {
                $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: Int(length)))
            }
        }
        return ClientSource.key(storage)
    }

    @Test(
        "the same source, or not",
        arguments: [
            ("127.0.0.1:1", "127.0.0.1:2", true),
            ("127.0.0.1:1", "127.0.0.2:1", false),
            ("[2001:db8:1:2::1]:1", "[2001:db8:1:2:ffff::9]:1", true),
            ("[2001:db8:1:2::1]:1", "[2001:db8:1:3::1]:1", false),
            ("[::ffff:192.0.2.1]:1", "192.0.2.1:1", true),
            ("[::ffff:192.0.2.1]:1", "192.0.2.2:1", false),
            ("[::1]:1", "0.0.0.1:1", false),
        ])
    func same(_ left: String, _ right: String, _ same: Bool) throws {
        #expect((try Self.key(left) == Self.key(right)) == same)
    }
}
