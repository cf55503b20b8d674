extension JSONParser {
    /// Which quote ends a string: JSON's `"`, or, for a string opened with another quote (read
    /// past as an error, `JSONParser+Recovery.swift`), that quote's partners.
    enum Closing {
        case json, single, curlyDouble, curlySingle
    }

    /// Reads a string starting at its opening quote (RFC 8259 §7), validating UTF-8 byte by
    /// byte so an error points at the exact offending byte.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        try scanString(open: index, contentStart: index + 1, closedBy: .json).text
    }

    /// Reads a string's content from `contentStart` through its closing quote; returns the text
    /// and the quote that closed it.
    mutating func scanString(
        open: Int, contentStart: Int, closedBy closing: Closing
    ) throws(JSONSyntaxError) -> (text: String, closedBy: Unicode.Scalar) {
        index = contentStart
        curlyQuoteInLastString = nil
        let quote = closing == .single || closing == .curlySingle ? UInt8(ascii: "'") : UInt8(ascii: "\"")
        var scalars = String.UnicodeScalarView()
        var runStart = index
        var plainRun = true
        while true {
            guard index < bytes.count else {
                throw JSONSyntaxError(
                    code: .jsonUnexpectedEnd, message: "the file ends inside a string that starts here", offset: open)
            }
            let byte = bytes[index]
            if byte == quote {
                let text = finishString(runStart: runStart, plainRun: plainRun, scalars: &scalars)
                index += 1
                lastStringEnd = index
                return (text, Unicode.Scalar(quote))
            }
            if byte == UInt8(ascii: "\\") {
                appendRun(from: runStart, to: index, into: &scalars)
                plainRun = false
                if closing == .single, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "'") {
                    scalars.append("'")
                    index += 2
                } else {
                    scalars.append(try parseEscape())
                }
                runStart = index
                continue
            }
            if byte < 0x20 {
                throw JSONSyntaxError(
                    code: .jsonControlCharacter,
                    message:
                        "raw control character 0x\(String(byte, radix: 16, uppercase: true)) inside a string; write "
                        + "it as an escape such as \\n or \\t",
                    offset: index)
            }
            if byte < 0x80 {
                index += 1
                continue
            }
            if byte == 0xE2, let curly = curlyQuote(at: index) {
                if closing == .json {
                    if curly.isDouble { curlyQuoteInLastString = index }
                } else if closing != .single && curly.isDouble == (closing == .curlyDouble) {
                    let text = finishString(runStart: runStart, plainRun: plainRun, scalars: &scalars)
                    index += 3
                    lastStringEnd = index
                    return (text, curly.scalar)
                }
            }
            index += try utf8SequenceLength(at: index)
        }
    }

    private func finishString(runStart: Int, plainRun: Bool, scalars: inout String.UnicodeScalarView) -> String {
        if plainRun && scalars.isEmpty { return String(decoding: bytes[runStart..<index], as: UTF8.self) }
        appendRun(from: runStart, to: index, into: &scalars)
        return String(scalars)
    }

    private func appendRun(from start: Int, to end: Int, into scalars: inout String.UnicodeScalarView) {
        guard start < end else { return }
        scalars.append(contentsOf: String(decoding: bytes[start..<end], as: UTF8.self).unicodeScalars)
    }

    /// The length of the valid UTF-8 sequence at `offset`, or an error naming the bad byte
    /// (overlong forms, surrogates and values past U+10FFFF are invalid, RFC 3629 §4).
    func utf8SequenceLength(at offset: Int) throws(JSONSyntaxError) -> Int {
        let lead = bytes[offset]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upperBound = 0x9F
        case 0xF0:
            length = 4
            lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upperBound = 0x8F
        default: throw invalidUTF8(at: offset)
        }
        for position in 1..<length {
            let at = offset + position
            guard at < bytes.count else { throw invalidUTF8(at: at) }
            let byte = bytes[at]
            let low = position == 1 ? lowerBound : 0x80
            let high = position == 1 ? upperBound : 0xBF
            guard byte >= low && byte <= high else { throw invalidUTF8(at: at) }
        }
        return length
    }

    private func invalidUTF8(at offset: Int) -> JSONSyntaxError {
        let byte = offset < bytes.count ? String(bytes[offset], radix: 16, uppercase: true) : "??"
        return JSONSyntaxError(
            code: .jsonInvalidUTF8, message: "invalid UTF-8 (byte 0x\(byte)); save the file as UTF-8", offset: offset)
    }

    /// Reads one escape after the backslash; `\u` pairs must form a whole surrogate pair.
    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let start = index
        index += 1
        guard index < bytes.count else { throw unexpectedEnd("an escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try parseHex4(escapeStart: start)
            if (0xDC00...0xDFFF).contains(unit) {
                throw JSONSyntaxError(
                    code: .jsonLoneSurrogate,
                    message: "\\u\(hex(unit)) is a low surrogate without a high surrogate before it", offset: start)
            }
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw JSONSyntaxError(
                        code: .jsonLoneSurrogate,
                        message: "\\u\(hex(unit)) is a high surrogate without a low surrogate after it", offset: start)
                }
                let lowStart = index
                index += 2
                let low = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONSyntaxError(
                        code: .jsonLoneSurrogate,
                        message: "\\u\(hex(unit)) is a high surrogate without a low surrogate after it", offset: start)
                }
                let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                // The surrogate ranges are checked above, so both conversions succeed.
                return Unicode.Scalar(value) ?? "\u{FFFD}"
            }
            return Unicode.Scalar(unit) ?? "\u{FFFD}"
        default:
            index = start
            throw JSONSyntaxError(
                code: .jsonInvalidEscape,
                message:
                    "\\\(describe(start + 1)) is not a JSON escape; valid are \\\" \\\\ \\/ \\b \\f \\n \\r \\t "
                    + "\\uXXXX",
                offset: start)
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                throw JSONSyntaxError(
                    code: .jsonInvalidEscape, message: "\\u must be followed by four hexadecimal digits",
                    offset: escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    func hex(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
