/// Well-formed UTF-8 sequences in bytes from a peer (RFC 3629 §4: no overlong forms, no
/// surrogates, nothing past U+10FFFF), read in place.
public enum UTF8Sequence {
    /// The length of the well-formed sequence starting at `index`; nil when none starts there.
    public static func length(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let length: Int
        let second: ClosedRange<UInt8>
        switch bytes[index] {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return nil }
        for continuation in bytes[(index + 2)..<(index + length)] where continuation & 0xC0 != 0x80 { return nil }
        return length
    }

    /// The scalar value of the well-formed sequence of `length` bytes at `index`.
    static func scalarValue(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, length: Int) -> UInt32 {
        let lead = UInt32(bytes[index])
        guard length > 1 else { return lead }
        var value = lead & (0xFF >> UInt32(length + 1))
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return value
    }
}
