/// How a text event writes untrusted text (site and file names, diagnostics, peer answers):
/// one event is one line, whatever the text holds, so no value can forge a line. Escaped by
/// Unicode scalar, never by `Character` (a grapheme cluster can swallow a quote or a line
/// break: `"\r\n"` is one Character).
package enum LogText {
    /// `text` with line breaks and other control characters written as escapes: `\n`, `\r`,
    /// `\t`, and `\u{HH}` for the rest of C0, DEL, C1 and the Unicode line and paragraph
    /// separators (U+2028, U+2029); a backslash is doubled, so an escape is never ambiguous,
    /// and with `quoting` a quote is `\"`.
    package static func escaped(_ text: String, quoting: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) || (quoting && $0 == "\"") }) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\": out += "\\\\"
            case "\"" where quoting: out += "\\\""
            case _ where needsEscape(scalar): out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `key=value`, the value escaped, and quoted when it holds a space or a quote (or is
    /// empty). Trailing line breaks (a list of diagnostic lines) are left out.
    package static func field(_ key: String, _ value: String) -> String {
        var value = Substring(value)
        while value.unicodeScalars.last == "\n" { value.unicodeScalars.removeLast() }
        let quoted = value.isEmpty || value.unicodeScalars.contains { $0 == " " || $0 == "\"" }
        return key + "=" + (quoted ? "\"" + escaped(String(value), quoting: true) + "\"" : escaped(String(value)))
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029: true
        case 0x5C: true
        default: false
        }
    }
}
