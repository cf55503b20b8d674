/// Percent-encoding as Apple's matcher sees it (observed with Apple's swcutil).
enum PercentDecoding {
    /// Decodes `%XX` escapes, then reads the bytes as UTF-8 (a sequence that is not UTF-8
    /// becomes U+FFFD). An invalid escape such as `%zz` stays as written.
    static func decode(_ scalars: [UInt32]) -> [UInt32] {
        guard scalars.contains(0x25) else { return scalars }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == 0x25, index + 2 < scalars.count, let high = hexValue(scalars[index + 1]),
                let low = hexValue(scalars[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
                continue
            }
            if scalar < 0x80 {
                bytes.append(UInt8(scalar))
            } else if let unicode = Unicode.Scalar(scalar) {
                bytes.append(contentsOf: String(Character(unicode)).utf8)
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.map(\.value)
    }

    /// What a browser sends for text typed into a URL: non-ASCII characters, spaces and
    /// control characters percent-encoded as UTF-8 with upper-case hex (RFC 3986 §2.1).
    static func encodeForURL(_ bytes: some Collection<UInt8>) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(bytes.count)
        for byte in bytes {
            if byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<")
                || byte == UInt8(ascii: ">")
            {
                result.append(0x25)
                result.append(hexDigit(byte >> 4))
                result.append(hexDigit(byte & 0xF))
            } else {
                result.append(UInt32(byte))
            }
        }
        return result
    }

    /// A hexadecimal digit's value, either case (also `AccentColor`'s digits).
    static func hexValue(_ scalar: UInt32) -> UInt8? {
        switch scalar {
        case 0x30...0x39: UInt8(scalar - 0x30)
        case 0x41...0x46: UInt8(scalar - 0x41 + 10)
        case 0x61...0x66: UInt8(scalar - 0x61 + 10)
        default: nil
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt32 {
        UInt32(value < 10 ? 0x30 + value : 0x41 + value - 10)
    }
}
