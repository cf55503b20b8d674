/// A strict RFC 8259 reader over bytes that records the location and JSON pointer of every
/// value. It rejects what lenient parsers accept (comments, trailing commas, NaN, leading
/// zeros, raw control characters, bad UTF-8, lone surrogates, a BOM, trailing content) and
/// bounds nesting so deep input is an error, never a stack overflow.
public struct JSONParser {
    public static let defaultMaximumDepth = 256

    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0
    var depth = 0
    var lines = LineTracker()
    var warnings: [Diagnostic] = []
    /// The path to the value being read, so a syntax error can say where it happened.
    var path: [PathComponent] = []

    enum PathComponent {
        case key(String)
        case index(Int)
    }

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// The JSON pointer of the value being read, rendered only when needed.
    var currentPointer: String {
        path.reduce("") { pointer, component in
            switch component {
            case .key(let key): JSONPointer.appending(key, to: pointer)
            case .index(let index): JSONPointer.appending(index, to: pointer)
            }
        }
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw JSONSyntaxError(
                code: .jsonByteOrderMark,
                message: "the file starts with a UTF-8 byte-order mark; save it as UTF-8 without BOM (RFC 8259 §8.1)",
                offset: 0)
        }
        skipWhitespace()
        if index >= bytes.count {
            throw JSONSyntaxError(
                code: .jsonUnexpectedEnd, message: "the file is empty; it must hold a JSON object", offset: index)
        }
        let root = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            try rejectComment()
            throw JSONSyntaxError(
                code: .jsonTrailingContent,
                message:
                    "unexpected \(describe(index)) after the end of the top-level value; a file holds exactly one "
                    + "JSON value",
                offset: index)
        }
        return root
    }

    // MARK: Values

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw unexpectedEnd("a value") }
        let start = index
        let location = lines.location(of: start, in: bytes)
        let kind: JSONValue.Kind
        switch bytes[index] {
        case UInt8(ascii: "{"): kind = try parseObject()
        case UInt8(ascii: "["): kind = try parseArray()
        case UInt8(ascii: "\""): kind = .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            kind = .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            kind = .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            kind = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = try parseNumber()
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw JSONSyntaxError(
                code: .jsonNonFiniteNumber, message: "NaN and Infinity are not JSON numbers", offset: index)
        case UInt8(ascii: "'"):
            throw JSONSyntaxError(
                code: .jsonSyntax, message: "strings use double quotes (\") in JSON, not single quotes", offset: index)
        default:
            try rejectComment()
            throw JSONSyntaxError(
                code: .jsonSyntax, message: "expected a value, found \(describe(index))", offset: index)
        }
        return JSONValue(kind: kind, location: location, range: start..<index)
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue.Kind {
        try enterContainer()
        index += 1
        var members: [JSONMember] = []
        var seen: Set<String> = []
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object([])
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw unexpectedEnd("a key or `}`") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                try rejectComment()
                throw JSONSyntaxError(
                    code: .jsonSyntax, message: "expected a double-quoted key, found \(describe(index))", offset: index)
            }
            let keyLocation = lines.location(of: index, in: bytes)
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                if index >= bytes.count { throw unexpectedEnd("`:`") }
                throw JSONSyntaxError(
                    code: .jsonSyntax, message: "expected `:` after the key, found \(describe(index))", offset: index)
            }
            index += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try parseValue()
            if isDuplicate(key, among: members, seen: &seen) {
                warnings.append(
                    Diagnostic(
                        .jsonDuplicateKey,
                        "duplicate key \"\(key)\"; only the last one counts, the earlier value is silently dropped",
                        at: keyLocation, pointer: currentPointer))
            }
            path.removeLast()
            members.append(JSONMember(key: key, keyLocation: keyLocation, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw unexpectedEnd("`,` or `}`") }
            if bytes[index] == UInt8(ascii: ",") {
                let comma = index
                index += 1
                skipWhitespace()
                if peek(UInt8(ascii: "}")) {
                    throw JSONSyntaxError(
                        code: .jsonTrailingComma, message: "trailing comma before `}`; remove it", offset: comma)
                }
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(members)
            }
            try rejectComment()
            throw JSONSyntaxError(
                code: .jsonSyntax, message: "expected `,` or `}`, found \(describe(index))", offset: index)
        }
    }

    /// Small objects (nearly all of an association file) are scanned; a set is built only
    /// once an object grows past a handful of keys.
    func isDuplicate(_ key: String, among members: [JSONMember], seen: inout Set<String>) -> Bool {
        if members.count < 8 { return members.contains { $0.key == key } }
        if seen.isEmpty { seen = Set(members.map(\.key)) }
        return !seen.insert(key).inserted
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue.Kind {
        try enterContainer()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array([])
        }
        while true {
            skipWhitespace()
            path.append(.index(elements.count))
            elements.append(try parseValue())
            path.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw unexpectedEnd("`,` or `]`") }
            if bytes[index] == UInt8(ascii: ",") {
                let comma = index
                index += 1
                skipWhitespace()
                if peek(UInt8(ascii: "]")) {
                    throw JSONSyntaxError(
                        code: .jsonTrailingComma, message: "trailing comma before `]`; remove it", offset: comma)
                }
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(elements)
            }
            try rejectComment()
            throw JSONSyntaxError(
                code: .jsonSyntax, message: "expected `,` or `]`, found \(describe(index))", offset: index)
        }
    }

    mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        if depth > maximumDepth {
            throw JSONSyntaxError(
                code: .jsonTooDeep, message: "nesting deeper than \(maximumDepth) levels", offset: index)
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = index
        let expected = literal.withUTF8Buffer { Array($0) }
        for byte in expected {
            guard index < bytes.count, bytes[index] == byte else {
                throw JSONSyntaxError(code: .jsonSyntax, message: "expected `\(literal)`", offset: start)
            }
            index += 1
        }
    }

    // MARK: Whitespace, comments and messages

    /// RFC 8259 §2: whitespace is space, tab, line feed and carriage return, nothing else.
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                lines.newLine(startingAt: index)
            default:
                return
            }
        }
    }

    /// Comments are the most common non-JSON found in association files; name them.
    func rejectComment() throws(JSONSyntaxError) {
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "/") else { return }
        let next = bytes[index + 1]
        if next == UInt8(ascii: "/") || next == UInt8(ascii: "*") {
            throw JSONSyntaxError(
                code: .jsonComment,
                message:
                    "comments are not allowed in JSON; remove it (use a \"comment\" key inside a component instead)",
                offset: index)
        }
    }

    func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    func unexpectedEnd(_ expected: String) -> JSONSyntaxError {
        JSONSyntaxError(
            code: .jsonUnexpectedEnd, message: "the file ends where \(expected) was expected", offset: bytes.count)
    }

    func describe(_ offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the file" }
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "`\(Character(Unicode.Scalar(byte)))`" }
        if byte == 0x20 { return "a space" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}
