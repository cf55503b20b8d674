/// How messages name what was found: a character by what people see and its code point, so
/// "a curly quote “ (U+201C)" rather than its first UTF-8 byte; invisible ones by name only.
extension JSONParser {
    func describe(_ offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the file" }
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "`\(String(Unicode.Scalar(byte)))`" }
        if byte == 0x20 { return "a space" }
        guard byte >= 0x80 else { return Self.name(of: Unicode.Scalar(byte)) }
        guard let length = try? utf8SequenceLength(at: offset) else {
            return "byte 0x\(String(byte, radix: 16, uppercase: true)), which is not UTF-8"
        }
        let scalar = String(decoding: bytes[offset..<offset + length], as: UTF8.self).unicodeScalars.first
        return scalar.map(Self.name(of:)) ?? "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    static func name(of scalar: Unicode.Scalar) -> String {
        let code = "U+" + codePoint(scalar)
        switch scalar.value {
        case 0x27: return "a single quote ' (\(code))"
        case 0x22: return "a double quote \" (\(code))"
        case 0x2018...0x201F: return "a curly quote \(String(scalar)) (\(code))"
        case 0xAB, 0xBB: return "a guillemet \(String(scalar)) (\(code))"
        case 0xFF02, 0xFF07: return "a full-width quote \(String(scalar)) (\(code))"
        case 0xA0: return "a no-break space (\(code))"
        case 0x200B: return "a zero-width space (\(code))"
        case 0xFEFF: return "a byte-order mark (\(code))"
        case 0x2028: return "a line separator (\(code))"
        case 0x2029: return "a paragraph separator (\(code))"
        default: break
        }
        switch scalar.properties.generalCategory {
        case .control: return "a control character (\(code))"
        case .spaceSeparator: return "a space character (\(code))"
        case .format: return "an invisible formatting character (\(code))"
        case .nonspacingMark, .enclosingMark, .spacingMark: return "a combining mark (\(code))"
        case .privateUse, .unassigned, .surrogate, .lineSeparator, .paragraphSeparator:
            return "the character \(code)"
        default: return "the character \(String(scalar)) (\(code))"
        }
    }

    /// At least four upper-case hex digits, as Unicode writes code points.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
