/// A strict RFC 8259 reader over bytes that records the location and JSON pointer of every
/// value. It rejects what lenient parsers accept (comments, trailing commas, NaN, leading
/// zeros, raw control characters, bad UTF-8, lone surrogates, a BOM, trailing content) and
/// bounds nesting so deep input is an error, never a stack overflow. The mistakes people make
/// most (comments, trailing commas, single and curly quotes) are errors it reads past, so one
/// run reports them all (`JSONParser+Recovery.swift`); anything else stops it.
public struct JSONParser {
    public static let defaultMaximumDepth = 256

    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0
    var depth = 0
    var lines = LineTracker()
    /// What did not stop the reading: duplicate keys and the mistakes read past.
    var findings: [Diagnostic] = []
    var recoveredCount = 0
    /// The last curly double quote inside the string read last, for the hint when the string
    /// runs on past where its writer meant it to end.
    var curlyQuoteInLastString: Int?
    var lastStringEnd = 0
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
        default:
            guard opensMisquotedString(at: index) else {
                throw JSONSyntaxError(
                    code: .jsonSyntax, message: "expected a value, found \(describe(index))", offset: index)
            }
            kind = .string(try parseMisquotedString())
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
            let keyLocation = lines.location(of: index, in: bytes)
            let key: String
            if bytes[index] == UInt8(ascii: "\"") {
                key = try parseString()
            } else if opensMisquotedString(at: index) {
                key = try parseMisquotedString()
            } else {
                throw JSONSyntaxError(
                    code: .jsonSyntax, message: "expected a double-quoted key, found \(describe(index))", offset: index)
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                if index >= bytes.count { throw unexpectedEnd("`:`") }
                throw JSONSyntaxError(
                    code: .jsonSyntax,
                    message: "expected `:` after the key, found \(describe(index))" + curlyQuoteHint(), offset: index)
            }
            index += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try parseValue()
            if isDuplicate(key, among: members, seen: &seen) {
                findings.append(
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
                let linesAtComma = lines
                index += 1
                skipWhitespace()
                if peek(UInt8(ascii: "}")) {
                    recoverTrailingComma(at: comma, before: "}", lines: linesAtComma)
                    index += 1
                    depth -= 1
                    return .object(members)
                }
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(members)
            }
            throw JSONSyntaxError(
                code: .jsonSyntax, message: "expected `,` or `}`, found \(describe(index))" + curlyQuoteHint(),
                offset: index)
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
                let linesAtComma = lines
                index += 1
                skipWhitespace()
                if peek(UInt8(ascii: "]")) {
                    recoverTrailingComma(at: comma, before: "]", lines: linesAtComma)
                    index += 1
                    depth -= 1
                    return .array(elements)
                }
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(elements)
            }
            throw JSONSyntaxError(
                code: .jsonSyntax, message: "expected `,` or `]`, found \(describe(index))" + curlyQuoteHint(),
                offset: index)
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

    /// RFC 8259 §2: whitespace is space, tab, line feed and carriage return, nothing else; a
    /// comment is read past as an error (`skipComment`).
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                lines.newLine(startingAt: index)
            case UInt8(ascii: "/"):
                guard skipComment() else { return }
            default:
                return
            }
        }
    }

    func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    func unexpectedEnd(_ expected: String) -> JSONSyntaxError {
        JSONSyntaxError(
            code: .jsonUnexpectedEnd, message: "the file ends where \(expected) was expected", offset: bytes.count)
    }
}
