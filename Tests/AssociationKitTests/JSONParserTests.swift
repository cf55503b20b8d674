import Testing

@testable import AssociationKit

@Suite("Strict JSON reader")
struct JSONParserTests {
    static func parse(_ text: String) -> JSONDocument { JSONDocument.parse(Array(text.utf8)) }

    struct Rejected: CustomTestStringConvertible, Sendable {
        var input: [UInt8]
        var code: DiagnosticCode
        var line: Int
        var column: Int
        var testDescription: String { "\(code.rawValue) at \(line):\(column)" }

        init(_ text: String, _ code: DiagnosticCode, _ line: Int, _ column: Int) {
            self.init(bytes: Array(text.utf8), code, line, column)
        }

        init(bytes: [UInt8], _ code: DiagnosticCode, _ line: Int, _ column: Int) {
            input = bytes
            self.code = code
            self.line = line
            self.column = column
        }
    }

    static let rejected: [Rejected] = [
        Rejected("{\"a\": x}", .jsonSyntax, 1, 7),
        Rejected("{'a': 1}", .jsonSingleQuote, 1, 2),
        Rejected("{a: 1}", .jsonSyntax, 1, 2),
        Rejected("{\n  // note\n  \"a\": 1\n}", .jsonComment, 2, 3),
        Rejected("{\"a\": 1 /* c */}", .jsonComment, 1, 9),
        Rejected("{\n  \"a\": [\n    1,\n    2,\n  ]\n}", .jsonTrailingComma, 4, 6),
        Rejected("{\"a\": 1,}", .jsonTrailingComma, 1, 8),
        Rejected("{\"a\": 01}", .jsonInvalidNumber, 1, 7),
        Rejected("{\"a\": -}", .jsonInvalidNumber, 1, 7),
        Rejected("{\"a\": 1.}", .jsonInvalidNumber, 1, 9),
        Rejected("{\"a\": 1e}", .jsonInvalidNumber, 1, 9),
        Rejected("{\"a\": NaN}", .jsonNonFiniteNumber, 1, 7),
        Rejected("{\"a\": -Infinity}", .jsonNonFiniteNumber, 1, 7),
        Rejected("{\"a\": \"x\ty\"}", .jsonControlCharacter, 1, 9),
        Rejected(bytes: Array("{\"a\": \"x".utf8) + [0xFF] + Array("\"}".utf8), .jsonInvalidUTF8, 1, 9),
        Rejected(bytes: Array("{\"a\": \"".utf8) + [0xC0, 0xAF] + Array("\"}".utf8), .jsonInvalidUTF8, 1, 8),
        Rejected(bytes: Array("{\"a\": \"".utf8) + [0xED, 0xA0, 0x80] + Array("\"}".utf8), .jsonInvalidUTF8, 1, 9),
        Rejected("{\"a\": \"\\x\"}", .jsonInvalidEscape, 1, 8),
        Rejected("{\"a\": \"\\u12\"}", .jsonInvalidEscape, 1, 8),
        Rejected("{\"a\": \"\\uD800\"}", .jsonLoneSurrogate, 1, 8),
        Rejected("{\"a\": \"\\uDC00x\"}", .jsonLoneSurrogate, 1, 8),
        Rejected("{} {}", .jsonTrailingContent, 1, 4),
        Rejected("{}\n// trailing", .jsonComment, 2, 1),
        Rejected(String(repeating: "[", count: 300), .jsonTooDeep, 1, 257),
        Rejected(bytes: [0xEF, 0xBB, 0xBF] + Array("{}".utf8), .jsonByteOrderMark, 1, 1),
        Rejected("", .jsonUnexpectedEnd, 1, 1),
        Rejected("   \n  ", .jsonUnexpectedEnd, 2, 3),
        Rejected("{\"applinks\": ", .jsonUnexpectedEnd, 1, 14),
        Rejected("{\"a\": \"open", .jsonUnexpectedEnd, 1, 7),
    ]

    @Test("rejects non-JSON at the exact character", arguments: rejected)
    func rejects(_ example: Rejected) {
        let document = JSONDocument.parse(example.input)
        #expect(document.root == nil)
        let error = document.diagnostics.last
        #expect(error?.code == example.code)
        #expect(error?.severity == .error)
        #expect(error?.location.line == example.line)
        #expect(error?.location.column == example.column)
    }

    @Test("accepts what RFC 8259 allows, with positions and pointers")
    func acceptsValidJSON() throws {
        let document = Self.parse(
            "{\n  \"a/b\": [1, -0.5e+3, true, null, \"é\\u00e9\\uD83D\\uDE00\"],\n  \"t~\": {}\n}")
        #expect(document.diagnostics.isEmpty)
        let root = try #require(document.root)
        let array = try #require(root["a/b"]?.arrayValue)
        #expect(array.count == 5)
        #expect(array[4].stringValue == "éé😀")
        #expect(root.pointer(at: array[4].range.lowerBound) == "/a~1b/4")
        #expect(array[4].location.line == 2)
        #expect(array[4].location.column == 35)
        if case .number(let value, let literal) = array[1].kind {
            #expect(value == -500)
            #expect(literal == "-0.5e+3")
        } else {
            Issue.record("expected a number")
        }
        #expect(root.pointer(at: root["t~"]!.range.lowerBound) == "/t~0")
    }

    @Test("columns count characters, not bytes, after non-ASCII text")
    func columnsCountScalars() throws {
        let root = try #require(Self.parse("{\"é\": \"ü\", \"b\": 1}").root)
        #expect(root["b"]?.location.column == 17)
    }

    @Test("a duplicate key is a warning and the last value wins")
    func duplicateKeys() throws {
        let document = Self.parse("{\"a\": 1, \"a\": 2}")
        let root = try #require(document.root)
        #expect(document.diagnostics.map(\.code) == [.jsonDuplicateKey])
        #expect(document.diagnostics.first?.severity == .warning)
        guard case .number(let value, _) = root["a"]?.kind else {
            Issue.record("expected a number, got \(String(describing: root["a"]?.kind))")
            return
        }
        #expect(value == 2)
    }

    @Test("deep but legal nesting parses; the limit is exact")
    func depthLimit() {
        let legal = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(Self.parse(legal).root != nil)
        let tooDeep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        #expect(Self.parse(tooDeep).diagnostics.last?.code == .jsonTooDeep)
    }

    @Test("random bytes never crash the reader")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            let document = JSONDocument.parse(bytes)
            #expect(document.root != nil || document.diagnostics.hasErrors)
        }
    }
}
