import Testing

@testable import AssociationKit

/// The warnings where Android reads a dynamic rule otherwise than its author (ADL020–ADL024),
/// each rule with the codes it gets, none for the rules that mean what they say, and the
/// rewritten rule the message gives.
@Suite("Android's dynamic rules: where Android and the author disagree")
struct AndroidRuleLintTests {
    static let lintCodes: Set<DiagnosticCode> = [
        .ruleNeverMatches, .starStopsEarly, .android15Differs, .encodedRulePattern, .wildcardRequiresPart,
    ]

    /// A rule, the codes it gets, and a part of the first message (the rule rewritten).
    static let rules: [(String, Set<DiagnosticCode>, String)] = [
        ("{}", [.ruleNeverMatches], #"write {"/": "*"}"#),
        (#"{"exclude": true}"#, [.ruleNeverMatches], #"{"/": "*", "exclude": true}"#),
        (#"{"comments": "nothing else", "exclude": false}"#, [.ruleNeverMatches], #"{"/": "*"}"#),
        (#"{"/": ""}"#, [.ruleNeverMatches], #"write {"/": "/"}"#),
        (##"{"/": "/a", "#": ""}"##, [.ruleNeverMatches], ##"{"/": "/a", "#": "*"}"##),
        (#"{"/": "*/terms/*", "exclude": true}"#, [.starStopsEarly], #"{"/": "*/*/terms/*", "exclude": true}"#),
        (#"{"/": "/docs/*.v1.pdf"}"#, [.starStopsEarly], #"{"/": "/docs/*.*.v1.pdf"}"#),
        (#"{"/": "/x?*y"}"#, [.android15Differs], #"{"/": "/x*y"}"#),
        (#"{"/": "/help.html"}"#, [.android15Differs], #"{"/": "/help?html"}"#),
        (#"{"/": "/v1.2/*"}"#, [.android15Differs], #"{"/": "/v1?2/*"}"#),
        (#"{"/": "/caf%C3%A9"}"#, [.encodedRulePattern], #"{"/": "/café"}"#),
        (#"{"/": "/a", "?": {"q": "a%20b"}}"#, [.encodedRulePattern], #""q": "a b""#),
        (##"{"/": "/a", "#": "*"}"##, [.wildcardRequiresPart], #"{"/": "/a"}"#),
        (#"{"/": "/a", "?": {"dl": "*", "x": "1"}}"#, [.wildcardRequiresPart], #"{"/": "/a", "?": {"x": "1"}}"#),
        // Rules that mean on Android what they say.
        (#"{"/": "/products/*/reviews"}"#, [], ""),
        (#"{"/": "/??_??/*/"}"#, [], ""),
        (#"{"/": "/reservations/?*", "?": {"source": "?*"}}"#, [], ""),
        (#"{"/": "*.pdf"}"#, [], ""),
        (#"{"/": "/a", "?": {"dl": "*"}, "exclude": true}"#, [], ""),
        (##"{"#": "*", "exclude": true}"##, [], ""),
        (#"{"/": "/café", "comments": "decoded, as Android compares"}"#, [], ""),
        (#"{"/": "/*"}"#, [], ""),
        (#"{"?": {"v": "1.2"}}"#, [.android15Differs], #""v": "1?2""#),
    ]

    @Test("each rule gets its codes and no others", arguments: rules)
    func lint(_ row: (String, Set<DiagnosticCode>, String)) throws {
        let file = AssetLinksTests.file(AssetLinksTests.statement(extra: AssetLinksTests.rules(row.0)))
        let found = AssetLinksValidator.validate(Array(file.utf8)).diagnostics.filter {
            Self.lintCodes.contains($0.code)
        }
        #expect(Set(found.map(\.code)) == row.1, "\(row.0): \(found.map(\.messageWithPointer))")
        #expect(found.allSatisfy { $0.severity == .warning })
        if !row.2.isEmpty {
            #expect(found.contains { $0.message.contains(row.2) }, "\(row.0): \(found.map(\.message))")
        }
    }

    @Test("warnings stand at the rule or the pattern, with line and column")
    func positions() throws {
        let file =
            "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"],\n \"target\": "
            + AssetLinksTests.app(fingerprints: "[\"\(AssetLinksTests.fingerprint)\"]")
            + ",\n \"relation_extensions\": {\"delegate_permission/common.handle_all_urls\": "
            + "{\"dynamic_app_link_components\": [\n  {\"/\": \"/x?*y\"},\n  {}]}}}]"
        let found = AssetLinksValidator.validate(Array(file.utf8)).diagnostics
        let pattern = try #require(found.first { $0.code == .android15Differs })
        #expect(pattern.location.line == 4 && pattern.location.column == 9, "\(pattern.location)")
        #expect(pattern.pointer.hasSuffix("/dynamic_app_link_components/0/~1"))
        let empty = try #require(found.first { $0.code == .ruleNeverMatches })
        #expect(empty.location.line == 5 && empty.location.column == 3, "\(empty.location)")
    }

    @Test("a second statement for a package is reported only when its rules differ from the first's")
    func laterStatements() {
        func codes(_ statements: String...) -> [DiagnosticCode] {
            AssetLinksValidator.validate(Array(("[" + statements.joined(separator: ", ") + "]").utf8)).diagnostics
                .map(\.code)
        }
        let rules = AssetLinksTests.rules(#"{"/": "/a"}"#)
        #expect(
            codes(AssetLinksTests.statement(), AssetLinksTests.statement(extra: rules)).contains(.laterStatementIgnored)
        )
        #expect(
            codes(AssetLinksTests.statement(extra: rules), AssetLinksTests.statement()).contains(.laterStatementIgnored)
        )
        #expect(
            !codes(AssetLinksTests.statement(extra: rules), AssetLinksTests.statement(extra: rules)).contains(
                .laterStatementIgnored))
        #expect(!codes(AssetLinksTests.statement(), AssetLinksTests.statement()).contains(.laterStatementIgnored))
    }

    @Test("a long hostile pattern is checked and matched in one pass")
    func hostile() throws {
        // 20,000 stars, each followed by a character that never recurs.
        var pattern = "/"
        for offset in 0..<20_000 { pattern += "*" + String(UnicodeScalar(0x4E00 + UInt32(offset))!) }
        let file = AssetLinksTests.file(
            AssetLinksTests.statement(extra: AssetLinksTests.rules(#"{"/": "\#(pattern)"}"#)))
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            let parsed = try #require(AssetLinksValidator.validate(Array(file.utf8)).file)
            let url = try MatchURL("https://example.com/" + String(repeating: "x", count: 50_000))
            #expect(AssetLinksMatcher(file: parsed).decide(url, package: "com.example.app").outcome == .noMatch)
        }
        #expect(elapsed < .seconds(5), "\(elapsed)")
    }
}
