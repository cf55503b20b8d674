@preconcurrency import Glibc

/// Who sent a ClientHello, as the on-demand ask shares its turns out (docs/security.md, "The
/// on-demand ask under a flood"): an IPv4 address whole, an IPv6 address by its /64, the
/// smallest block a host is usually given (RFC 6177 §3: sites get a /48 or /56, a link /64),
/// an IPv4-mapped IPv6 address as its IPv4 one. One integer, made without allocating.
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

    static func ipv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> UInt64 {
        1 << 63 | UInt64(a) << 24 | UInt64(b) << 16 | UInt64(c) << 8 | UInt64(d)
    }
}
