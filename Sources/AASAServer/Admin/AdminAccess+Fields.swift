import AASALoop
import AASATransport
@preconcurrency import Glibc

extension AdminAccess {
    /// The host of a Host value without its port, and whether it was in brackets; nil when the
    /// value is not `uri-host [":" port]` (RFC 3986 §3.2.2, §3.2.3).
    static func split(_ value: [UInt8]) -> (host: ArraySlice<UInt8>, isBracketed: Bool)? {
        let host: ArraySlice<UInt8>
        let rest: ArraySlice<UInt8>
        let isBracketed = value.first == UInt8(ascii: "[")
        if isBracketed {
            guard let close = value.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = value[1..<close]
            rest = value[(close + 1)...]
        } else if let colon = value.lastIndex(of: UInt8(ascii: ":")) {
            host = value[..<colon]
            rest = value[colon...]
        } else {
            host = value[...]
            rest = []
        }
        let isPort =
            rest.isEmpty
            || (rest.first == UInt8(ascii: ":") && rest.count <= 6 && rest.dropFirst().allSatisfy(HTTPToken.isDigit))
        guard isPort, !host.isEmpty else { return nil }
        return (host, isBracketed)
    }

    /// Whether `text` is an address written as `family` writes it: a dotted quad for IPv4,
    /// RFC 4291 §2.2 text for IPv6.
    static func isAddress(_ text: ArraySlice<UInt8>, family: Int32) -> Bool {
        IPAddress(text).map { $0.isIPv4 == (family == AF_INET) } ?? false
    }

    /// `Bearer 1*SP token68` (RFC 6750 §2.1; the scheme is case-insensitive, RFC 9110 §11.1)
    /// in an Authorization field value (the parser trimmed its optional whitespace).
    static func credentials(_ buffer: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Range<Int>? {
        let trimmed = HTTPToken.trimmingWhitespace(buffer, value)
        var start = trimmed.lowerBound
        let end = trimmed.upperBound
        guard end - start > 7, HTTPToken.equalsIgnoringCase(buffer, start..<(start + 7), "bearer ") else { return nil }
        start += 7
        while start < end, buffer[start] == 0x20 { start += 1 }
        return start < end ? start..<end : nil
    }
}
