import Testing

@testable import AssociationKit

/// Dynamic rules decided as Android decides them (docs/association-files.md, "Android's
/// matching"): the rows of issue 49's table and the statements' order.
@Suite("Android's matching")
struct AndroidMatchingTests {
    static func decide(_ file: String, _ url: String, package: String = "com.example.app") throws -> MatchDecision {
        let parsed = try #require(AssetLinksValidator.validate(Array(file.utf8)).file)
        return AssetLinksMatcher(file: parsed).decide(try MatchURL(url), package: package, domain: "example.com")
    }

    static func withRules(_ rules: String) -> String {
        AssetLinksTests.file(AssetLinksTests.statement(extra: AssetLinksTests.rules(rules)))
    }

    /// Rules, URL, Android's decision.
    static let table: [(String, String, MatchDecision.Outcome)] = [
        (#"{"/": "/products/*/reviews"}"#, "https://example.com/products/a/b/reviews", .noMatch),
        (#"{"/": "/products/*/reviews"}"#, "https://example.com/products/a/reviews", .match),
        (#"{"/": "*.pdf"}"#, "https://example.com/a.b.pdf", .noMatch),
        (#"{"/": "*.pdf"}"#, "https://example.com/ab.pdf", .match),
        (#"{"/": "/café"}"#, "https://example.com/caf%C3%A9", .match),
        (#"{"/": "/café"}"#, "https://example.com/café", .match),
        (#"{"/": "/caf%C3%A9"}"#, "https://example.com/caf%C3%A9", .noMatch),
        (#"{"?": {"dl": "*"}}"#, "https://example.com/a", .noMatch),
        (#"{"?": {"dl": "*"}}"#, "https://example.com/a?dl=x", .match),
        (#"{"?": {"dl": "*"}}"#, "https://example.com/a?x=1;dl=2", .match),
        (#"{"?": {"dl": "a b"}}"#, "https://example.com/a?dl=a%20b", .match),
        (#"{}"#, "https://example.com/a", .noMatch),
        (#"{"exclude": true}"#, "https://example.com/a", .noMatch),
        (#"{"exclude": true}, {"/": "*"}"#, "https://example.com/a", .match),
        ("", "https://example.com/a", .unknown),
        (##"{"#": "*"}"##, "https://example.com/a", .noMatch),
        (##"{"#": "*"}"##, "https://example.com/a#", .match),
        (#"{"/": "/a", "comments": "the shop"}"#, "https://example.com/a", .match),
        (#"{"/": "/a.html"}"#, "https://example.com/a.html", .match),
        (#"{"/": "/a.html"}"#, "https://example.com/axhtml", .noMatch),
        (#"{"/": "/a/*", "exclude": true}, {"/": "*"}"#, "https://example.com/a/b", .exclude),
        (#"{"/": "/x?*y"}"#, "https://example.com/x12y", .match),
    ]

    @Test("issue 49's table and more, each as Android decides", arguments: table)
    func rows(_ row: (String, String, MatchDecision.Outcome)) throws {
        let decision = try Self.decide(Self.withRules(row.0), row.1)
        #expect(decision.outcome == row.2, "\(row.0) \(row.1): \(decision.reason)")
    }

    @Test("the first statement granting a package decides for it; the reason names who reads the rules")
    func firstStatement() throws {
        let file = AssetLinksTests.file(
            AssetLinksTests.statement(extra: AssetLinksTests.rules(#"{"/": "/a"}"#)),
            AssetLinksTests.statement(extra: AssetLinksTests.rules(#"{"/": "/b"}"#)))
        #expect(try Self.decide(file, "https://example.com/a").outcome == .match)
        let second = try Self.decide(file, "https://example.com/b")
        #expect(second.outcome == .noMatch)
        #expect(second.reason.contains("statements[0], the first granting"))
        #expect(second.reason.contains("Play services"))
        // Without rules first, the manifest decides, whatever a later statement says.
        let manifestFirst = AssetLinksTests.file(
            AssetLinksTests.statement(), AssetLinksTests.statement(extra: AssetLinksTests.rules(#"{"/": "/b"}"#)))
        #expect(try Self.decide(manifestFirst, "https://example.com/x").outcome == .unknown)
    }

    @Test("where Android 15's parser decides otherwise, the reason says so")
    func android15() throws {
        let decision = try Self.decide(Self.withRules(#"{"/": "/x?*y"}"#), "https://example.com/x12y")
        #expect(decision.outcome == .match)
        #expect(decision.reason.contains("Android 15's parser decides no_match"))
        let same = try Self.decide(Self.withRules(#"{"/": "/x/*"}"#), "https://example.com/x/1")
        #expect(!same.reason.contains("Android 15"))
    }

    @Test("the three statement lists Google's compatibility tests read otherwise than validate did, restated")
    func googleCases() {
        func codes(_ text: String) -> [DiagnosticCode] {
            AssetLinksValidator.validate(Array(text.utf8)).diagnostics.map(\.code)
        }
        let web = { (site: String) in
            AssetLinksTests.file(
                AssetLinksTests.statement(),
                AssetLinksTests.statement(
                    relation: #"["delegate_permission/common.get_login_creds"]"#,
                    target: #"{"namespace": "web", "site": "\#(site)"}"#))
        }
        #expect(
            codes(
                AssetLinksTests.file(
                    AssetLinksTests.statement(),
                    #"{"target": {"namespace": "web", "site": "https://a.example"}, "include": "https://a.example/x.json"}"#
                )
            ).contains(.includeWithStatementFields))
        #expect(codes(web("HtTpS://target.example")).isEmpty)
        #expect(codes(web("https://target.example:999999")).contains(.invalidWebSite))
        #expect(codes(web("https://target.example:8443")).isEmpty)
        #expect(
            codes(AssetLinksTests.file(AssetLinksTests.statement(), #"{"include": "https://target.example:999999"}"#))
                .contains(.invalidInclude))
        #expect(
            codes(AssetLinksTests.file(AssetLinksTests.statement(), #"{"include": "HTTPS://target.example/a.json"}"#))
                .isEmpty)
    }
}
