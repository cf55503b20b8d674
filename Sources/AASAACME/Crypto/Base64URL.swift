/// base64url without padding (RFC 4648 §5), as JOSE uses it (RFC 7515 §2).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            for shift in [18, 12, 6, 0] { output.append(alphabet[Int(value >> UInt32(shift) & 63)]) }
            index += 3
        }
        let rest = input.count - index
        if rest > 0 {
            let second = rest == 2 ? UInt32(input[index + 1]) << 8 : 0
            let value = UInt32(input[index]) << 16 | second
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            if rest == 2 { output.append(alphabet[Int(value >> 6 & 63)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    public static func encode(_ text: String) -> String { encode(Array(text.utf8)) }
}

extension Base64URL {
    /// The bytes of base64url text (padding and surrounding whitespace allowed, RFC 4648 §5);
    /// nil for any other character or an impossible length.
    public static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt32] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(UInt32(byte - UInt8(ascii: "A")))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(UInt32(byte - UInt8(ascii: "a")) + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(UInt32(byte - UInt8(ascii: "0")) + 52)
            case UInt8(ascii: "-"): values.append(62)
            case UInt8(ascii: "_"): values.append(63)
            case UInt8(ascii: "="), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index < values.count {
            let group = values[index..<min(index + 4, values.count)]
            var value: UInt32 = 0
            for (offset, part) in group.enumerated() { value |= part << UInt32(18 - 6 * offset) }
            for offset in 0..<(group.count - 1) { output.append(UInt8(value >> UInt32(16 - 8 * offset) & 0xFF)) }
            index += 4
        }
        return output
    }
}
