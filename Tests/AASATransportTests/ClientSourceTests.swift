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

    @Test(
        "an address's /56 and /48, and what each key stands for",
        arguments: [
            ("2001:db8:1:2::1", "2001:db8:1:ff:1::1", true, true),
            ("2001:db8:1:2::1", "2001:db8:1:100::1", false, true),
            ("2001:db8:1:2::1", "2001:db8:2:2::1", false, false),
            ("2001:db8:1:2::1", "2001:db9:1:2::1", false, false),
        ])
    func blocks(_ left: String, _ right: String, _ same56: Bool, _ same48: Bool) throws {
        let (one, other) = (try Self.key("[\(left)]:1"), try Self.key("[\(right)]:1"))
        #expect(ClientSource.kind(one) == .ipv6Subnet && ClientSource.kind(other) == .ipv6Subnet)
        #expect((ClientSource.block56(one) == ClientSource.block56(other)) == same56)
        #expect((ClientSource.block48(one) == ClientSource.block48(other)) == same48)
        #expect(ClientSource.kind(ClientSource.block56(one)) == .ipv6Block56)
        #expect(ClientSource.kind(ClientSource.block48(one)) == .ipv6Block48)
        #expect(ClientSource.block48(ClientSource.block56(one)) == ClientSource.block48(one))
        // A block's key is never an address's: not an IPv4 one, not a /64's.
        for block in [ClientSource.block56(one), ClientSource.block48(one)] {
            #expect(block != one && block >> 62 == 0b11)
        }
        #expect(ClientSource.kind(try Self.key("192.0.2.1:1")) == .ipv4)
        #expect(ClientSource.kind(try Self.key("[::ffff:192.0.2.1]:1")) == .ipv4)
        #expect(ClientSource.kind(ClientSource.ipv4(255, 255, 255, 255)) == .ipv4)
    }
}
