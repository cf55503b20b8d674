import AssociationKit
import Foundation
import Testing

@testable import AASALoop

/// Every log escaper against the inputs that forge lines or garble text: CR LF, a forged
/// event line, é, a combining mark after a quote, and bytes that are not UTF-8.
@Suite("log escaping")
struct LogEscapingTests {
    static let forged = "x\n2026-01-01T00:00:00Z info reloaded; changed: nothing"

    @Test(
        "text events: one line whatever the value holds",
        arguments: [
            ("plain", "key=plain"),
            ("two words", #"key="two words""#),
            ("", #"key="""#),
            ("a\r\nb", #"key=a\r\nb"#),
            (forged, #"key="x\n2026-01-01T00:00:00Z info reloaded; changed: nothing""#),
            ("tab\there", #"key=tab\there"#),
            ("bell\u{7}del\u{7F}", #"key=bell\u{7}del\u{7f}"#),
            ("nel\u{85}ls\u{2028}ps\u{2029}", #"key=nel\u{85}ls\u{2028}ps\u{2029}"#),
            (#"say "hi""#, #"key="say \"hi\"""#),
            ("\"\u{301}", "key=\"\\\"\u{301}\""),
            ("back\\slash", #"key=back\\slash"#),
            ("café", "key=café"),
            ("e\u{301}", "key=e\u{301}"),
            (String(decoding: [0x61, 0xFF, 0xC3], as: UTF8.self), "key=a\u{FFFD}\u{FFFD}"),
            ("diagnostics\nsecond line\n", #"key="diagnostics\nsecond line""#),
        ])
    func textFields(value: String, expected: String) {
        let field = LogText.field("key", value)
        #expect(field == expected)
        #expect(!field.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test("text event messages: line breaks escaped, quotes kept")
    func textMessages() {
        #expect(LogText.escaped(Self.forged) == #"x\n2026-01-01T00:00:00Z info reloaded; changed: nothing"#)
        #expect(LogText.escaped(#"cannot listen on "x""#) == #"cannot listen on "x""#)
        #expect(LogText.escaped("a\r\nb") == #"a\r\nb"#)
    }

    @Test(
        "JSON events: control characters as \\u00XX, everything else as UTF-8",
        arguments: [
            ("a\r\nb", #""a\u000d\u000ab""#),
            (forged, #""x\u000a2026-01-01T00:00:00Z info reloaded; changed: nothing""#),
            ("café", #""café""#),
            ("\"\u{301}", "\"\\\"\u{301}\""),
            (String(decoding: [0x61, 0xFF], as: UTF8.self), "\"a\u{FFFD}\""),
        ])
    func jsonEvents(value: String, expected: String) throws {
        let quoted = JSONWriter.quoted(value, lineSafe: true)
        #expect(quoted == expected)
        let decoded = try JSONSerialization.jsonObject(with: Data(quoted.utf8), options: .fragmentsAllowed)
        #expect(decoded as? String == value)
    }

    /// The access log line for a request whose User-Agent is `agent`.
    static func accessLine(_ agent: [UInt8], format: LogFormat) -> String {
        var log = AccessLog(format: format, enabled: true)
        let host = Array("example.com".utf8)
        let method = Array("GET".utf8)
        let path = Array("/".utf8)
        host.withUnsafeBufferPointer { host in
            method.withUnsafeBufferPointer { method in
                path.withUnsafeBufferPointer { path in
                    agent.withUnsafeBufferPointer { agent in
                        let entry = AccessLog.Entry(
                            client: Array("127.0.0.1".utf8), host: host, method: method, path: path, isHTTP11: true,
                            status: 200, bytes: 1, durationNanoseconds: 0, userAgent: agent)
                        log.record(entry, time: Array("T".utf8))
                    }
                }
            }
        }
        return String(decoding: log.buffer, as: UTF8.self)
    }

    @Test(
        "access log: bytes from the request escaped as bytes in text, as UTF-8 or U+FFFD in JSON",
        arguments: [
            (Array("a\r\nb".utf8), #"a\x0d\x0ab"#, #"a\u000d\u000ab"#),
            (
                Array(forged.utf8), #"x\x0a2026-01-01T00:00:00Z info reloaded; changed: nothing"#,
                #"x\u000a2026-01-01T00:00:00Z info reloaded; changed: nothing"#
            ),
            (Array("café".utf8), #"caf\xc3\xa9"#, "café"),
            (Array("\"\u{301}".utf8), #"\x22\xcc\x81"#, "\\\"\u{301}"),
            ([0x61, 0xFF, 0x62], #"a\xffb"#, #"a\ufffdb"#),
            // Overlong `/`, a surrogate, a truncated sequence, past U+10FFFF.
            (
                [0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xE2, 0x82, 0xF4, 0x90, 0x80, 0x80],
                #"\xc0\xaf\xed\xa0\x80\xe2\x82\xf4\x90\x80\x80"#,
                String(repeating: #"\ufffd"#, count: 11)
            ),
            (Array("nel\u{85}ls\u{2028}".utf8), #"nel\xc2\x85ls\xe2\x80\xa8"#, #"nel\u0085ls\u2028"#),
            (Array("😀".utf8), #"\xf0\x9f\x98\x80"#, "😀"),
        ])
    func accessLog(agent: [UInt8], text: String, json: String) throws {
        let textLine = Self.accessLine(agent, format: .text)
        #expect(textLine.hasSuffix("\"\(text)\"\n"))
        #expect(textLine.utf8.filter { $0 == 0x0A }.count == 1)
        let jsonLine = Self.accessLine(agent, format: .json)
        #expect(jsonLine.hasSuffix("\"user_agent\":\"\(json)\"}\n"))
        #expect(jsonLine.utf8.filter { $0 == 0x0A }.count == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(jsonLine.utf8)) as? [String: Any])
        let expected = try JSONSerialization.jsonObject(with: Data("\"\(json)\"".utf8), options: .fragmentsAllowed)
        #expect(object["user_agent"] as? String == expected as? String)
        // Well-formed UTF-8 reads back as the very text sent.
        if let sent = String(bytes: agent, encoding: .utf8) { #expect(object["user_agent"] as? String == sent) }
    }
}
