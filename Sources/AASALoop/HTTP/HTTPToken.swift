@preconcurrency import Glibc

/// Byte-level helpers for HTTP syntax (RFC 9110 §5.6).
package enum HTTPToken {
    /// token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" (RFC 9110 §11.2),
    /// without the padding.
    package static func isToken68Character(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
            UInt8(ascii: "/"):
            true
        default: false
        }
    }

    /// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
    @inline(__always)
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"),
            UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    @inline(__always)
    package static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    @inline(__always)
    package static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Byte equality with a literal: the length, then memcmp(3).
    @inline(__always)
    package static func equals(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ literal: StaticString)
        -> Bool
    {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        guard range.upperBound <= buffer.count, let base = buffer.baseAddress else { return range.isEmpty }
        return memcmp(base + range.lowerBound, literal.utf8Start, range.count) == 0
    }

    /// Compares with a lower-case literal, folding ASCII case in the buffer.
    package static func equalsIgnoringCase(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ literal: StaticString
    )
        -> Bool
    {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        return literal.withUTF8Buffer { expected in
            for offset in 0..<expected.count where lower(buffer[range.lowerBound + offset]) != expected[offset] {
                return false
            }
            return true
        }
    }

    /// `range` without the optional whitespace (SP and HTAB, RFC 9110 §5.6.3) around it, and,
    /// with `lineEnd`, without a line's closing CR too.
    @inline(__always)
    package static func trimmingWhitespace(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, lineEnd: Bool = false
    ) -> Range<Int> {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high, buffer[low] == 0x20 || buffer[low] == 0x09 { low += 1 }
        while high > low, buffer[high - 1] == 0x20 || buffer[high - 1] == 0x09 || (lineEnd && buffer[high - 1] == 0x0D)
        {
            high -= 1
        }
        return low..<high
    }

    /// Calls `body` with each element of a comma-separated list, trimmed of whitespace
    /// (RFC 9110 §5.6.1); empty elements are skipped.
    static func forEachListElement(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (Range<Int>) -> Void
    ) {
        var start = range.lowerBound
        while start <= range.upperBound {
            var end = start
            while end < range.upperBound, buffer[end] != UInt8(ascii: ",") { end += 1 }
            let element = trimmingWhitespace(buffer, start..<end)
            if !element.isEmpty { body(element) }
            start = end + 1
        }
    }
}
