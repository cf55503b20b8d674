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
        guard parts.count <= 2, let address = Self.address(String(parts[0])) else { return nil }
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

    public func contains(high other: UInt64, low otherLow: UInt64) -> Bool {
        other & maskHigh == high && otherLow & maskLow == low
    }

    /// The address as 128 bits, from its text (inet_pton(3)).
    static func address(_ text: String) -> (high: UInt64, low: UInt64, isIPv4: Bool)? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return (0, 0xFFFF_0000_0000 | UInt64(UInt32(bigEndian: v4.s_addr)), true)
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        return withUnsafeBytes(of: &v6) { bytes in
            let high = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let low = bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return (high, low, false)
        }
    }

    /// A peer's address as 128 bits; nil for anything but IPv4 and IPv6.
    static func address(of peer: sockaddr_storage) -> (high: UInt64, low: UInt64)? {
        let family = Int32(peer.ss_family)
        return withUnsafeBytes(of: peer) { bytes -> (UInt64, UInt64)? in
            switch family {
            case AF_INET:
                let v4 = bytes.load(fromByteOffset: 4, as: UInt32.self)
                return (0, 0xFFFF_0000_0000 | UInt64(UInt32(bigEndian: v4)))
            case AF_INET6:
                var high: UInt64 = 0
                var low: UInt64 = 0
                for index in 0..<8 { high = high << 8 | UInt64(bytes[8 + index]) }
                for index in 0..<8 { low = low << 8 | UInt64(bytes[16 + index]) }
                return (high, low)
            default: return nil
            }
        }
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
