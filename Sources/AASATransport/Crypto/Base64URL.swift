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
