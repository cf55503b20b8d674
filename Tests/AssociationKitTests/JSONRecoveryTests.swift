import Testing

@testable import AssociationKit

/// The mistakes the reader reads past (comments, trailing commas, single and curly quotes):
/// each reported where it is, reading going on, the document still not JSON.
@Suite("JSON reader: recovery from common mistakes")
struct JSONRecoveryTests {
    struct Recovered: CustomTestStringConvertible, Sendable {
        var input: String
        /// Every finding, in file order: code, line, column.
        var found: [Found]
        /// The value read as if the mistakes were not there, canonical.
        var canonical: String
        var testDescription: String { input }

        struct Found: Equatable, Sendable, CustomStringConvertible {
            var code: DiagnosticCode
            var line: Int
            var column: Int
            var description: String { "\(code.rawValue)@\(line):\(column)" }
        }

        init(_ input: String, _ canonical: String, _ found: (DiagnosticCode, Int, Int)...) {
            self.input = input
            self.canonical = canonical
            self.found = found.map { Found(code: $0.0, line: $0.1, column: $0.2) }
        }
    }

    static let recovered: [Recovered] = [
        Recovered("{\"a\": [1, 2,],}", #"{"a":[1,2]}"#, (.jsonTrailingComma, 1, 12), (.jsonTrailingComma, 1, 14)),
        Recovered("[\n  1,\n  2,\n]", "[1,2]", (.jsonTrailingComma, 3, 4)),
        Recovered("[1, // one\n 2 /* two */]", "[1,2]", (.jsonComment, 1, 5), (.jsonComment, 2, 4)),
        Recovered("/* a\n b */ {\"a\":\n// x\n1}", #"{"a":1}"#, (.jsonComment, 1, 1), (.jsonComment, 3, 1)),
        Recovered("{'a': 'it\\'s \"x\"'}", #"{"a":"it's \"x\""}"#, (.jsonSingleQuote, 1, 2), (.jsonSingleQuote, 1, 7)),
        Recovered("{\"a\": “x”}", #"{"a":"x"}"#, (.jsonCurlyQuote, 1, 7)),
        Recovered("{“a\": 1}", #"{"a":1}"#, (.jsonCurlyQuote, 1, 2)),
        Recovered("[‘x’, „y“]", #"["x","y"]"#, (.jsonCurlyQuote, 1, 2), (.jsonCurlyQuote, 1, 7)),
        Recovered(
            "{\n  'a': [1,],\n  // c\n  \"b\": “é”,\n}", #"{"a":[1],"b":"é"}"#, (.jsonSingleQuote, 2, 3),
            (.jsonTrailingComma, 2, 10), (.jsonComment, 3, 3), (.jsonCurlyQuote, 4, 8), (.jsonTrailingComma, 4, 11)),
    ]

    @Test("each mistake is an error at its place; reading goes on; the file is still not JSON", arguments: recovered)
    func recovers(_ example: Recovered) throws {
        let document = JSONDocument.parse(Array(example.input.utf8))
        let found = document.diagnostics.map {
            Recovered.Found(code: $0.code, line: $0.location.line, column: $0.location.column)
        }
        #expect(found == example.found)
        #expect(document.diagnostics.allSatisfy { $0.severity == .error })
        #expect(document.root == nil)
        let recovered = try #require(document.recoveredRoot)
        #expect(recovered.canonical == example.canonical)
    }

    @Test("what reading cannot get past stops it, after the mistakes before it are reported")
    func stopsAfterRecovering() {
        let document = JSONDocument.parse(Array("{\"a\": [1,], // c\n \"b\": x}".utf8))
        #expect(document.diagnostics.map(\.code) == [.jsonTrailingComma, .jsonComment, .jsonSyntax])
        #expect(document.root == nil)
        #expect(document.recoveredRoot == nil)
        // Not recovered: an empty slot, an unclosed comment or string.
        for text in ["[1,,2]", "[,]", "{\"a\": 1 /* open", "['open", "{“open: 1}"] {
            let parsed = JSONDocument.parse(Array(text.utf8))
            #expect(parsed.recoveredRoot == nil, "\(text)")
            #expect(parsed.diagnostics.last?.severity == .error, "\(text)")
        }
        #expect(
            JSONDocument.parse(Array("[1 /* open".utf8)).diagnostics.map(\.code) == [.jsonComment, .jsonUnexpectedEnd])
    }

    @Test("JSON without mistakes: recoveredRoot is root, and no finding")
    func cleanInput() throws {
        let document = JSONDocument.parse(Array(#"{"a": ["/x", "“quoted” text", "it's"]}"#.utf8))
        #expect(document.diagnostics.isEmpty)
        let root = try #require(document.root)
        #expect(document.recoveredRoot?.canonical == root.canonical)
    }

    @Test("recovered findings carry the pointer of the value they sit in")
    func pointers() {
        let document = JSONDocument.parse(Array(#"{"a": {"b": [1,], "c": 'x'}}"#.utf8))
        #expect(document.diagnostics.map(\.pointer) == ["/a/b", "/a/c"])
    }

    struct Named: Sendable, CustomTestStringConvertible {
        var input: [UInt8]
        var message: String
        var testDescription: String { message }
    }

    static let named: [Named] = [
        Named(input: Array("{\"a\": “x\"}".utf8), message: "a curly quote “ (U+201C) where JSON needs \""),
        Named(
            input: Array("{\"a\": ‘x’}".utf8),
            message: "a curly quote ‘ (U+2018) where JSON needs \"; the string ends with a curly quote ’ (U+2019), "
                + "also to be \""),
        Named(input: Array("{\"a\": é}".utf8), message: "expected a value, found the character é (U+00E9)"),
        Named(input: Array("{\"a\":\u{A0}1}".utf8), message: "expected a value, found a no-break space (U+00A0)"),
        Named(input: Array("{\"a\": \u{200B}1}".utf8), message: "expected a value, found a zero-width space (U+200B)"),
        Named(input: Array("{\"a\": 1 ”}".utf8), message: "expected `,` or `}`, found a curly quote ” (U+201D)"),
        Named(
            input: Array("{\"a\": ".utf8) + [0xE2, 0x80],
            message: "expected a value, found byte 0xE2, which is not UTF-8"),
        Named(input: Array("[\u{1}]".utf8), message: "expected a value, found a control character (U+0001)"),
        Named(
            input: Array("{\"applinks”: {\"details\": []}}".utf8),
            message:
                "expected `:` after the key, found `d`; the string before holds a curly quote ” (U+201D) at line 1, "
                + "column 11: if it was meant to end the string, JSON needs \""),
    ]

    @Test("messages name characters by what people see, with the code point", arguments: named)
    func namesCharacters(_ example: Named) {
        let messages = JSONDocument.parse(example.input).diagnostics.map(\.message)
        #expect(messages.contains(example.message), "\(messages)")
    }

    @Test("thousands of mistakes: every one counted, reading stays linear, pointers only for the kept")
    func manyMistakes() {
        let commas = Array(("[" + String(repeating: "[1,],", count: 20_000) + "[]]").utf8)
        let document = JSONDocument.parse(commas)
        #expect(document.diagnostics.count == 20_000)
        #expect(document.recoveredRoot?.arrayValue?.count == 20_001)
        #expect(document.diagnostics.last?.pointer == "")
        #expect(document.diagnostics.first?.pointer == "/0")
        let comments = Array(("[" + String(repeating: "/**/", count: 30_000) + "1]").utf8)
        #expect(JSONDocument.parse(comments).diagnostics.count == 30_000)
        // Unclosed quotes and comments are read once, not rescanned from every start.
        let quotes = Array(("[" + String(repeating: "'", count: 1) + String(repeating: "“", count: 40_000)).utf8)
        #expect(JSONDocument.parse(quotes).diagnostics.last?.code == .jsonUnexpectedEnd)
    }
}
