/// The one splitter of an authority (RFC 3986 §3.2: `host[:port]`, no userinfo) into host and
/// port, over bytes and without allocating, so the request path's Host lookup and the
/// parsers of URLs and `HOST:PORT` arguments (`URLParts`) take hosts apart the same way.
public struct AuthoritySplit: Sendable, Equatable {
    /// The host's bytes: a registered name or IPv4 address as written, an IPv6 literal
    /// without its brackets.
    public var host: Range<Int>
    /// The port when one is given (`host:` has none, §3.2.3), within 0...65535.
    public var port: Int?
    /// True for a bracketed IP literal (§3.2.2), whose host holds colons.
    public var isIPLiteral: Bool

    /// `bytes[range]` taken apart; nil when it is no authority: an empty host, a port that is
    /// not at most five digits up to 65535, brackets that do not hold an IPv6 address
    /// (hex digits, `:` and `.`), or anything after them but a port.
    @inlinable
    public init?(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        let start = range.lowerBound
        let end = range.upperBound
        guard start < end else { return nil }
        var hostEnd: Int
        var portStart: Int
        if bytes[start] == UInt8(ascii: "[") {
            var close = start + 1
            while close < end, bytes[close] != UInt8(ascii: "]") {
                let byte = bytes[close]
                let isHex =
                    Self.isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
                guard isHex || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") else { return nil }
                close += 1
            }
            guard close < end, close > start + 1 else { return nil }
            (host, isIPLiteral) = ((start + 1)..<close, true)
            hostEnd = close + 1
            guard hostEnd == end || bytes[hostEnd] == UInt8(ascii: ":") else { return nil }
            portStart = hostEnd
        } else {
            hostEnd = start
            while hostEnd < end, bytes[hostEnd] != UInt8(ascii: ":") {
                // Userinfo (§3.2.1) is refused, not skipped: http(s) URIs must not carry it
                // (RFC 9110 §4.2.4), and a Host header naming `user@host` names no site.
                guard bytes[hostEnd] != UInt8(ascii: "@") else { return nil }
                hostEnd += 1
            }
            guard hostEnd > start else { return nil }
            (host, isIPLiteral) = (start..<hostEnd, false)
            portStart = hostEnd
        }
        port = nil
        guard portStart < end else { return }
        // The colon, then digits only.
        let digits = (portStart + 1)..<end
        guard digits.count <= 5 else { return nil }
        var value = 0
        for offset in digits {
            guard Self.isDigit(bytes[offset]) else { return nil }
            value = value * 10 + Int(bytes[offset] &- UInt8(ascii: "0"))
        }
        guard value <= 65535 else { return nil }
        port = digits.isEmpty ? nil : value
    }

    @usableFromInline
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
