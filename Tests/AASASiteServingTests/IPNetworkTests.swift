import AASALoop
import AASATransport
import Testing

@testable import AASASiteServing

@Suite("IP networks")
struct IPNetworkTests {
    @Test(
        "CIDR matching, IPv4 and IPv6",
        arguments: [
            ("127.0.0.0/8", "127.0.0.1", true),
            ("127.0.0.0/8", "128.0.0.1", false),
            ("17.0.0.0/8", "17.255.1.2", true),
            ("192.0.2.7", "192.0.2.7", true),
            ("192.0.2.7", "192.0.2.8", false),
            ("0.0.0.0/0", "203.0.113.9", true),
            ("0.0.0.0/0", "2001:db8::1", false),
            ("2001:db8::/32", "2001:db8:ffff::1", true),
            ("2001:db8::/32", "2001:db9::1", false),
            ("::/0", "::1", true),
            ("2001:db8::1/128", "2001:db8::1", true),
            ("10.0.0.0/31", "10.0.0.1", true),
            ("10.0.0.0/31", "10.0.0.2", false),
        ])
    func matching(network: String, address: String, expected: Bool) throws {
        let parsed = try #require(IPNetwork(network))
        let client = try #require(IPAddress(address))
        #expect(parsed.contains(client) == expected)
    }

    @Test(
        "malformed networks are refused",
        arguments: ["", "10.0.0.0/33", "::/129", "10.0.0/8", "x", "1.2.3.4/", "1.2.3.4/-1"])
    func malformed(text: String) {
        #expect(IPNetwork(text) == nil)
    }
}
