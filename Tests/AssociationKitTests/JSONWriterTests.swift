import AssociationKit
import Foundation
import Testing

/// The one JSON writer (RFC 8259): strings by Unicode scalars, bytes from the wire with
/// U+FFFD for what is not UTF-8, and `JSONEncoder`'s sorted, pretty layout kept.
@Suite("JSON writer")
struct JSONWriterTests {
    static let strings: [(String, String, String)] = [
        ("plain", #""plain""#, #""plain""#),
        ("a\"b\\c", #""a\"b\\c""#, #""a\"b\\c""#),
        ("a\r\n\t\u{1}b", #""a\u000d\u000a\u0009\u0001b""#, #""a\u000d\u000a\u0009\u0001b""#),
        ("café", "\"café\"", "\"café\""),
        ("\"\u{301}", "\"\\\"\u{301}\"", "\"\\\"\u{301}\""),
        ("😀/x", "\"😀/x\"", "\"😀/x\""),
        ("del\u{7F}nel\u{85}ls\u{2028}", "\"del\u{7F}nel\u{85}ls\u{2028}\"", #""del\u007fnel\u0085ls\u2028""#),
    ]

    @Test("strings escaped by scalars; line-safe escapes what breaks a log line", arguments: strings)
    func escapes(input: String, plain: String, lineSafe: String) throws {
        #expect(JSONWriter.quoted(input) == plain)
        #expect(JSONWriter.quoted(input, lineSafe: true) == lineSafe)
        for text in [plain, lineSafe] {
            let decoded = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
            #expect(decoded as? String == input)
            #expect(JSONDocument.parse(Array(text.utf8)).root?.stringValue == input)
        }
    }

    static let wire: [([UInt8], String)] = [
        (Array("café".utf8), "café"),
        (Array("😀".utf8), "😀"),
        ([0x61, 0xFF, 0x62], #"a\ufffdb"#),
        // Overlong `/`, a surrogate, a truncated sequence, past U+10FFFF: one U+FFFD per byte.
        ([0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xE2, 0x82, 0xF4, 0x90, 0x80, 0x80], String(repeating: #"\ufffd"#, count: 11)),
        (Array("q\"\\\n".utf8), #"q\"\\\u000a"#),
        (Array("\u{85}\u{2029}".utf8), #"\u0085\u2029"#),
        ([], ""),
    ]

    @Test("bytes from the wire: UTF-8 kept, anything else U+FFFD", arguments: wire)
    func wireBytes(input: [UInt8], expected: String) throws {
        var out: [UInt8] = []
        input.withUnsafeBufferPointer { JSONWriter.appendStringContents(bytes: $0, to: &out) }
        #expect(String(decoding: out, as: UTF8.self) == expected)
        let decoded = try JSONSerialization.jsonObject(
            with: Data(("\"" + expected + "\"").utf8), options: .fragmentsAllowed)
        if let sent = String(validating: input, as: UTF8.self) { #expect(decoded as? String == sent) }
    }

    static let numbers: [(JSONNode, String)] = [
        (.integer(-42), "-42"), (.unsigned(UInt64.max), "18446744073709551615"), (.number(1), "1"),
        (.number(0.1), "0.1"), (.number(1e300), "1e+300"), (.number(.nan), "null"), (.number(-.infinity), "null"),
        (.bool(true), "true"), (.null, "null"),
    ]

    @Test("numbers, booleans and null", arguments: numbers)
    func scalars(node: JSONNode, expected: String) {
        #expect(JSONWriter().text(node) == expected)
    }

    @Test("objects keep the given key order unless sorted")
    func keyOrder() {
        let node = JSONNode.object([("b", .integer(1)), ("a", .array([])), ("é", .object([])), ("B", .null)])
        #expect(JSONWriter().text(node) == #"{"b":1,"a":[],"é":{},"B":null}"#)
        #expect(JSONWriter(sortedKeys: true).text(node) == #"{"B":null,"a":[],"b":1,"é":{}}"#)
    }

    struct Sample: Encodable {
        let name: String
        let count: Int
        let ratio: Double
        let missing: String?
        let tags: [String]
        let empty: [Int]
        let nested: [String: [String: Int]]
        let url: String
    }

    @Test("Encodable values written as JSONEncoder wrote them, sorted and pretty or compact")
    func matchesJSONEncoder() throws {
        let sample = Sample(
            name: "a\"é😀\u{1}", count: -3, ratio: 0.25, missing: nil, tags: ["x", "y"], empty: [],
            nested: ["k": [:], "B": ["z": 1, "_": 2]], url: "https://example.com/a/b")
        let node = try JSONNodeEncoder.node(sample)
        for pretty in [true, false] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
            let expected = String(decoding: try encoder.encode(sample), as: UTF8.self)
            #expect(JSONWriter(sortedKeys: true, pretty: pretty).text(node) == expected)
        }
    }

    struct Twice: Encodable {
        enum Keys: String, CodingKey { case a, b }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .a)
            try container.encode(2, forKey: .b)
            try container.encode("again", forKey: .a)
            var nested = encoder.container(keyedBy: Keys.self)
            try nested.encodeNil(forKey: .b)
        }
    }

    @Test("a key encoded twice keeps its last value, as JSONEncoder does")
    func repeatedKey() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let expected = String(decoding: try encoder.encode(Twice()), as: UTF8.self)
        #expect(JSONWriter(sortedKeys: true).text(try JSONNodeEncoder.node(Twice())) == expected)
        #expect(expected == #"{"a":"again","b":null}"#)
    }
}
