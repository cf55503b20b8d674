/// Checks over whole request parts, eight bytes at a time where that is exact ("Bit
/// Twiddling Hacks", hasless and haszero): the request line and every field value are
/// checked on every request, and a byte-by-byte loop cost about 8 instructions a byte.
enum ByteClasses {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether some byte of `word` is below `limit` (at most 128; exact as a yes or no).
    @inline(__always)
    private static func hasByte(below limit: UInt64, in word: UInt64) -> Bool {
        (word &- ones &* limit) & ~word & highBits != 0
    }

    /// Whether some byte of `word` is `byte`.
    @inline(__always)
    private static func hasByte(_ byte: UInt64, in word: UInt64) -> Bool {
        hasByte(below: 1, in: word ^ (ones &* byte))
    }

    /// A request-target's bytes (RFC 9112 §3.2, RFC 3986 §2): visible ASCII only, no control
    /// characters, space, DEL or bytes above 0x7F; a client percent-encodes anything else (every
    /// browser does), and raw UTF-8 in a path is a way to reach a route by bytes no one wrote.
    static func isVisible(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        allSatisfy(
            buffer, range, wordFails: { $0 & highBits != 0 || hasByte(below: 0x21, in: $0) || hasByte(0x7F, in: $0) },
            byteIsAllowed: { $0 > 0x20 && $0 < 0x7F })
    }

    /// A field value's bytes (RFC 9110 §5.5): horizontal tab, visible characters, space and
    /// bytes above 0x7F; no other control character and no DEL.
    static func isFieldValue(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        // A word with a byte below 0x20 is looked at byte by byte (it may be a tab).
        allSatisfy(
            buffer, range, wordFails: { hasByte(below: 0x20, in: $0) || hasByte(0x7F, in: $0) },
            byteIsAllowed: { ($0 >= 0x20 || $0 == 0x09) && $0 != 0x7F })
    }

    /// `byteIsAllowed` for every byte of `buffer[range]`, skipping whole words for which
    /// `wordFails` is false (it must be true for any word with a byte not allowed).
    @inline(__always)
    private static func allSatisfy(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, wordFails: (UInt64) -> Bool,
        byteIsAllowed: (UInt8) -> Bool
    ) -> Bool {
        guard let base = buffer.baseAddress, range.upperBound <= buffer.count else { return range.isEmpty }
        guard range.count >= 8 else {
            for index in range where !byteIsAllowed(base[index]) { return false }
            return true
        }
        let raw = UnsafeRawPointer(base)
        func wordIsAllowed(at index: Int) -> Bool {
            guard wordFails(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) else { return true }
            for offset in index..<(index + 8) where !byteIsAllowed(base[offset]) { return false }
            return true
        }
        var index = range.lowerBound
        while index + 8 <= range.upperBound {
            guard wordIsAllowed(at: index) else { return false }
            index += 8
        }
        // The last word overlaps the one before it rather than leaving bytes for a loop.
        return index == range.upperBound || wordIsAllowed(at: range.upperBound - 8)
    }
}
