import AASALoop
import AASATransport
@preconcurrency import Glibc

/// An IPv4 or IPv6 network in CIDR notation (RFC 4632 §3.1, RFC 4291 §2.3), parsed once at
/// start-up. Addresses are compared as 128 bits, IPv4 as IPv4-mapped IPv6 (RFC 4291 §2.5.5.2),
/// so matching a peer is two masked compares, without allocating.
public struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    let high: UInt64
    let low: UInt64
    let maskHigh: UInt64
    let maskLow: UInt64
    public let description: String

    /// `192.0.2.0/24`, `2001:db8::/32`, or an address alone (a network of one).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = IPAddress(parts[0].utf8) else { return nil }
        let width = address.isIPv4 ? 32 : 128
        var prefix = width
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...width).contains(given), parts[1].utf8.allSatisfy({ $0 < 0x80 })
            else { return nil }
            prefix = given
        }
        let bits = address.isIPv4 ? prefix + 96 : prefix
        maskHigh = bits >= 64 ? .max : bits == 0 ? 0 : .max << (64 - bits)
        maskLow = bits >= 128 ? .max : bits <= 64 ? 0 : .max << (128 - bits)
        high = address.high & maskHigh
        low = address.low & maskLow
        description = text
    }

    package func contains(_ address: IPAddress) -> Bool {
        address.high & maskHigh == high && address.low & maskLow == low
    }

    /// A comma-separated list; empty means none.
    public static func list(_ value: String) -> [IPNetwork]? {
        var networks: [IPNetwork] = []
        for part in value.split(separator: ",") {
            guard let network = IPNetwork(String(part.filter { $0 != " " })) else { return nil }
            networks.append(network)
        }
        return networks
    }
}
