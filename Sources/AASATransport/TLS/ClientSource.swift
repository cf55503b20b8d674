@preconcurrency import Glibc

/// Who sent a ClientHello, as the shares of work strangers can queue count it (docs/security.md,
/// "Work a stranger can queue", "The on-demand ask under a flood"): an IPv4 address whole, an
/// IPv6 address by its /64, the smallest block a host is usually given (RFC 4291 §2.5.1: an
/// interface identifier is 64 bits, so one link is one /64), an IPv4-mapped IPv6 address as its
/// IPv4 one. One integer, made without allocating. A site is given far more than one /64 (RFC
/// 6177, BCP 157: a /48 or a /56, 65,536 or 256 of them), so the shares count a block spreading
/// over its /64s as a few sources (`SourceBlocks`), with the keys of its /56 and /48 made here.
package enum ClientSource {
    package static func key(_ peer: sockaddr_storage) -> UInt64 {
        let family = Int32(peer.ss_family)
        return withUnsafeBytes(of: peer) { raw -> UInt64 in
            if family == AF_INET6 {
                let address = raw.load(as: sockaddr_in6.self).sin6_addr
                return withUnsafeBytes(of: address) { bytes -> UInt64 in
                    let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
                    if mapped { return ipv4(bytes[12], bytes[13], bytes[14], bytes[15]) }
                    // The /64: the first eight bytes; a top bit clear is never an IPv4 key's.
                    return bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & ~(1 << 63)
                }
            }
            let address = raw.load(as: sockaddr_in.self).sin_addr
            return withUnsafeBytes(of: address) { ipv4($0[0], $0[1], $0[2], $0[3]) }
        }
    }

    /// An IPv4 address's key: the top bit set, bit 62 clear, the address in the low 32 bits.
    package static func ipv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> UInt64 {
        1 << 63 | UInt64(a) << 24 | UInt64(b) << 16 | UInt64(c) << 8 | UInt64(d)
    }

    /// What a key stands for.
    package enum Kind: Equatable {
        case ipv4
        case ipv6Subnet
        case ipv6Block56
        case ipv6Block48
    }

    /// A block's key: the top two bits set (never an IPv4 key's, whose bit 62 is clear), bit 61
    /// telling a /56 from a /48, the block's bits (less the /64's top one, as in its key) below.
    private static let block56Tag: UInt64 = 0b111 << 61
    private static let block48Tag: UInt64 = 0b110 << 61

    package static func kind(_ key: UInt64) -> Kind {
        if key >> 63 == 0 { return .ipv6Subnet }
        switch key >> 61 {
        case 0b111: return .ipv6Block56
        case 0b110: return .ipv6Block48
        default: return .ipv4
        }
    }

    /// The /56 holding an IPv6 /64's key.
    package static func block56(_ subnet: UInt64) -> UInt64 { block56Tag | subnet >> 8 }

    /// The /48 holding an IPv6 /64's key, or a /56 block's key.
    package static func block48(_ key: UInt64) -> UInt64 {
        kind(key) == .ipv6Block56 ? block48Tag | (key & ~block56Tag) >> 8 : block48Tag | key >> 16
    }
}
