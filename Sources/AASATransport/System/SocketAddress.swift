import CSystemShims
@preconcurrency import Glibc

/// An IPv4 or IPv6 address and port, parsed from `ADDR:PORT` (`127.0.0.1:8080`,
/// `[::1]:8080`, `localhost:8080`, `*:8080` for every IPv4 address).
public struct SocketAddress: Sendable, Equatable, CustomStringConvertible {
    public enum Family: Sendable { case ipv4, ipv6 }

    public let family: Family
    /// The address bytes in network order (4 or 16).
    public let bytes: [UInt8]
    public let port: Int

    private init(family: Family, bytes: [UInt8], port: Int) {
        self.family = family
        self.bytes = bytes
        self.port = port
    }

    /// An IPv4 loopback address (`127.0.0.1:PORT`), for the defaults.
    public static func loopback(port: Int) -> SocketAddress {
        SocketAddress(family: .ipv4, bytes: [127, 0, 0, 1], port: port)
    }

    /// An address from its 4 or 16 bytes in network order (a DNS answer's A or AAAA data).
    public init?(addressBytes: [UInt8], port: Int) {
        guard addressBytes.count == 4 || addressBytes.count == 16, (0...65535).contains(port) else { return nil }
        self.init(family: addressBytes.count == 4 ? .ipv4 : .ipv6, bytes: addressBytes, port: port)
    }

    /// The same address on another port (the one the kernel chose for port 0).
    public func with(port: Int) -> SocketAddress {
        SocketAddress(family: family, bytes: bytes, port: port)
    }

    public struct ParseError: Error, CustomStringConvertible {
        public var description: String
    }

    public init(parsing text: String) throws(ParseError) {
        // Digits only: Int("+80") would read a sign, and a port is never written with one.
        guard let colon = text.lastIndex(of: ":"), case let digits = text[text.index(after: colon)...],
            !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let port = Int(digits),
            (0...65535).contains(port)
        else {
            throw ParseError(description: "\"\(text)\" is not ADDRESS:PORT (for example 127.0.0.1:8080 or [::1]:8080)")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { host = "127.0.0.1" }
        if host == "*" || host.isEmpty { host = "0.0.0.0" }
        guard let address = IPAddress(host) else {
            throw ParseError(
                description: "\"\(host)\" is not an IP address (names other than localhost are not resolved)")
        }
        family = address.isIPv4 ? .ipv4 : .ipv6
        bytes = address.bytes
        self.port = port
    }

    package init(_ storage: sockaddr_storage) {
        var storage = storage
        if Int32(storage.ss_family) == AF_INET6 {
            let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            family = .ipv6
            bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
            port = Int(UInt16(bigEndian: address.sin6_port))
        } else {
            let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            family = .ipv4
            bytes = withUnsafeBytes(of: address.sin_addr) { Array($0) }
            port = Int(UInt16(bigEndian: address.sin_port))
        }
    }

    /// True for 127.0.0.0/8 and ::1: the admin listener's default home.
    public var isLoopback: Bool {
        family == .ipv4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
    }

    /// `0.0.0.0` or `::`: every address of its family (ip(7) INADDR_ANY, ipv6(7) in6addr_any).
    public var isWildcard: Bool { bytes.allSatisfy { $0 == 0 } }

    /// Whether `other` is the same host, an IPv4 address and its IPv4-mapped IPv6 form
    /// (`::ffff:127.0.0.1`, how a dual-stack socket sees IPv4) alike; ports are not compared.
    public func isSameHost(as other: SocketAddress) -> Bool {
        ipv4Bytes.map { $0 == other.ipv4Bytes } ?? (bytes == other.bytes)
    }

    /// Whether a connection that arrived on the local address `local` is one this listening
    /// address takes: the same host, or, for a wildcard, any address of its family (an
    /// IPv4-mapped IPv6 address counting as IPv4).
    public func admits(_ local: SocketAddress) -> Bool {
        guard isWildcard else { return isSameHost(as: local) }
        return family == .ipv4 ? local.ipv4Bytes != nil : local.family == .ipv6 && local.ipv4Bytes == nil
    }

    /// The four bytes of an IPv4 address, or of an IPv4-mapped IPv6 one; nil for other IPv6.
    private var ipv4Bytes: ArraySlice<UInt8>? {
        if family == .ipv4 { return bytes[...] }
        let mapped = [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF]
        return bytes.starts(with: mapped) ? bytes[12...] : nil
    }

    /// The address alone, as inet_ntop(3) writes it.
    public var host: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let domain = family == .ipv4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(domain, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String {
        family == .ipv4 ? "\(host):\(port)" : "[\(host)]:\(port)"
    }

    package func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        switch family {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: bytes) }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .ipv6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: bytes) }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }
}
