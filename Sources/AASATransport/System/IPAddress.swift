@preconcurrency import Glibc

/// An IPv4 or IPv6 address as 128 bits, IPv4 mapped into IPv6 (`::ffff:a.b.c.d`, RFC 4291
/// §2.5.5.2) so that one comparison serves both: the one parser of address text (inet_pton(3))
/// for listeners, trusted networks, `X-Forwarded-For` and the admin listener's Host.
package struct IPAddress: Sendable, Hashable {
    package let high: UInt64
    package let low: UInt64
    /// Written as a dotted quad (or taken from an IPv4 peer), not as IPv6 text.
    package let isIPv4: Bool

    /// The longest address text inet_pton(3) reads: INET6_ADDRSTRLEN less its NUL.
    static let longestText = 45

    package init(high: UInt64, low: UInt64, isIPv4: Bool) {
        (self.high, self.low, self.isIPv4) = (high, low, isIPv4)
    }

    /// The address of `bytes`: a dotted quad or RFC 4291 §2.2 text, nothing around it.
    /// Copied to the stack with its NUL, so reading a request's bytes allocates nothing.
    package init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count <= Self.longestText, !bytes.contains(0) else { return nil }
        let parsed = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Self.longestText + 1) { text in
            var end = 0
            for byte in bytes {
                text[end] = CChar(bitPattern: byte)
                end += 1
            }
            text[end] = 0
            return Self.parse(text.baseAddress)
        }
        guard let parsed else { return nil }
        self = parsed
    }

    package init?(_ text: String) {
        self.init(text.utf8)
    }

    /// A peer's address; nil for anything but IPv4 and IPv6.
    package init?(peer: sockaddr_storage) {
        let family = Int32(peer.ss_family)
        let parsed = withUnsafeBytes(of: peer) { bytes -> IPAddress? in
            switch family {
            case AF_INET: Self(v4: bytes.load(fromByteOffset: 4, as: UInt32.self))
            // sin6_addr follows sin6_family, sin6_port and sin6_flowinfo (8 bytes).
            case AF_INET6: Self(v6: UnsafeRawBufferPointer(rebasing: bytes[8..<24]))
            default: nil
            }
        }
        guard let parsed else { return nil }
        self = parsed
    }

    /// The address in network order: 4 bytes for IPv4, 16 for IPv6.
    package var bytes: [UInt8] {
        let all =
            (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        return isIPv4 ? Array(all.suffix(4)) : all
    }

    private static func parse(_ text: UnsafePointer<CChar>?) -> IPAddress? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return IPAddress(v4: v4.s_addr) }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        return withUnsafeBytes(of: &v6) { IPAddress(v6: $0) }
    }

    /// `networkOrder` as in_addr's s_addr holds it.
    private init(v4 networkOrder: UInt32) {
        self.init(high: 0, low: 0xFFFF_0000_0000 | UInt64(UInt32(bigEndian: networkOrder)), isIPv4: true)
    }

    private init(v6 bytes: UnsafeRawBufferPointer) {
        let high = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(high: high, low: low, isIPv4: false)
    }
}
