extension JSONParser {
    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue.Kind {
        let start = index
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "I") {
                throw JSONSyntaxError(
                    code: .jsonNonFiniteNumber, message: "-Infinity is not a JSON number", offset: start)
            }
        }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw JSONSyntaxError(code: .jsonInvalidNumber, message: "a number needs digits after `-`", offset: start)
        }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, isDigit(bytes[index + 1]) {
            throw JSONSyntaxError(
                code: .jsonInvalidNumber, message: "leading zeros are not allowed in JSON numbers", offset: index)
        }
        skipDigits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw JSONSyntaxError(
                    code: .jsonInvalidNumber, message: "a decimal point must be followed by digits", offset: index)
            }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw JSONSyntaxError(code: .jsonInvalidNumber, message: "an exponent must have digits", offset: index)
            }
            skipDigits()
        }
        let literal = String(decoding: bytes[start..<index], as: UTF8.self)
        return .number(Double(literal) ?? .nan, literal: literal)
    }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
