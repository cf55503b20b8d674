@preconcurrency import Glibc
import Testing

@testable import AASATransport

@Suite("IP addresses: the one parser")
struct IPAddressTests {
    @Test(
        "address text as 128 bits, IPv4 mapped",
        arguments: [
            ("127.0.0.1", UInt64(0), UInt64(0xFFFF_7F00_0001), true),
            ("17.0.0.1", 0, 0xFFFF_1100_0001, true),
            ("::1", 0, 1, false),
            ("2001:db8::1", 0x2001_0DB8_0000_0000, 1, false),
            ("::ffff:10.0.0.1", 0, 0xFFFF_0A00_0001, false),
        ])
    func parses(_ text: String, _ high: UInt64, _ low: UInt64, _ isIPv4: Bool) throws {
        let address = try #require(IPAddress(text))
        #expect(address.high == high && address.low == low && address.isIPv4 == isIPv4)
        #expect(IPAddress(Array(text.utf8)[...]) == address)
    }

    @Test(
        "anything else is no address",
        arguments: [
            "", "localhost", "1.2.3", "1.2.3.4.5", "256.0.0.1", " 1.2.3.4", "1.2.3.4 ", "::1%eth0", "[::1]",
            "1.2.3.4\u{0}", String(repeating: "1", count: 46), "01.2.3.4",
        ])
    func refuses(_ text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test("a peer's address and the bytes in network order")
    func peers() throws {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.storeBytes(of: sa_family_t(AF_INET), toByteOffset: 0, as: sa_family_t.self)
            raw.storeBytes(of: UInt32(0x7F00_0001).bigEndian, toByteOffset: 4, as: UInt32.self)
        }
        let peer = try #require(IPAddress(peer: storage))
        #expect(peer == IPAddress("127.0.0.1"))
        #expect(peer.bytes == [127, 0, 0, 1])
        #expect(IPAddress("2001:db8::1")?.bytes == [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 11) + [1])
        storage.ss_family = sa_family_t(AF_UNIX)
        #expect(IPAddress(peer: storage) == nil)
    }
}
