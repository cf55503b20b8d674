/// `accentColor` of `fallback.json`: a `#RRGGBB` colour, kept as its three components so a page
/// writes it from numbers, never from the file's text.
public struct AccentColor: Sendable, Equatable {
    public let red: UInt8
    public let green: UInt8
    public let blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#` and six hexadecimal digits, either case; nothing else (no `#RGB`, no names).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return nil }
        var value: UInt32 = 0
        for byte in bytes[1...] {
            guard let digit = PercentDecoding.hexValue(UInt32(byte)) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// `#rrggbb`, lowercase.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "#")]
        for component in [red, green, blue] {
            bytes.append(digits[Int(component >> 4)])
            bytes.append(digits[Int(component & 0xF)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether dark text reads better on this colour than white: the relative luminance of
    /// WCAG 2.2 ("relative luminance") above 0.179, where both contrasts are equal
    /// ((L + 0.05) / 0.05 = 1.05 / (L + 0.05)). The sRGB curve's exponent 2.4 is taken as 2.25
    /// (x² · ⁴√x, no libm here): close enough to pick a text colour.
    public var prefersDarkText: Bool {
        func linear(_ component: UInt8) -> Double {
            let value = Double(component) / 255
            if value <= 0.04045 { return value / 12.92 }
            let base = (value + 0.055) / 1.055
            return base * base * base.squareRoot().squareRoot()
        }
        let luminance = 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
        return luminance > 0.179
    }
}
