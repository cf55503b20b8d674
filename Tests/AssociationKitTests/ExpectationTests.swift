import Testing

@testable import AssociationKit

/// expectations.json: every URL must get the promised decision; a broken promise or an entry
/// that cannot be checked is an error at the entry's line.
@Suite("expectations")
struct ExpectationTests {
    static let apple = AssociationFileValidator.validate(
        Array(
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/buy/free/*", "exclude": true}, {"/": "/buy/*"}]}]}}"#
                .utf8)
    ).file
    static let android = AssetLinksValidator.validate(
        Array(
            #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]"#
                .utf8)
    ).file

    static func check(_ text: String, domain: String? = "example.com") -> [Diagnostic] {
        ExpectationChecker.check(Array(text.utf8), apple: apple, android: android, domain: domain).diagnostics
    }

    static func apple(_ url: String, _ expect: String, app: String = "ABCDE12345.com.example.app") -> String {
        #"{"apple": [{"url": "\#(url)", "app": "\#(app)", "expect": "\#(expect)"}]}"#
    }

    @Test(
        "kept promises are silent; a broken one is EXP001 with the URL, app, both decisions and the deciding rule",
        arguments: [
            ("https://example.com/buy/1", "match", nil), ("https://example.com/buy/free/1", "exclude", nil),
            ("https://example.com/sell/1", "no_match", nil), ("https://other.com/buy/1", "no_match", nil),
            ("https://example.com/buy/free/1", "match", "expected match, got exclude"),
            ("https://example.com/buy/1", "no_match", "expected no_match, got match"),
        ] as [(String, String, String?)])
    func applePromises(_ url: String, _ expect: String, _ failure: String?) throws {
        let found = Self.check(Self.apple(url, expect))
        if let failure {
            let diagnostic = try #require(found.first)
            #expect(diagnostic.code == .expectationFailed)
            #expect(
                diagnostic.message.contains("\(url) ABCDE12345.com.example.app: \(failure)"), "\(diagnostic.message)")
            #expect(diagnostic.location.line == 1)
            if expect == "match" {
                #expect(diagnostic.message.contains(#"rule: {"/": "/buy/free/*", "exclude": true}"#))
            }
        } else {
            #expect(found.isEmpty, "\(found.map(\.message))")
        }
    }

    @Test("Android promises: match and no_match by package")
    func androidPromises() {
        let kept =
            #"{"android": [{"url": "https://example.com/a", "package": "com.example.app", "expect": "match"}, {"url": "https://example.com/a", "package": "com.other", "expect": "no_match"}]}"#
        #expect(Self.check(kept).isEmpty)
        let broken = #"{"android": [{"url": "https://example.com/a", "package": "com.other", "expect": "match"}]}"#
        #expect(Self.check(broken).map(\.code) == [.expectationFailed])
        // Without dynamic rules the manifest decides (`unknown`): a promised no_match is not kept.
        let web =
            #"{"android": [{"url": "https://example.com/a", "package": "com.example.app", "expect": "no_match"}]}"#
        let message = Self.check(web).first?.message ?? ""
        #expect(message.contains("expected no_match, got unknown"), "\(message)")
    }

    @Test("Android promises: exclude, by a dynamic rule")
    func androidExclude() throws {
        let text =
            #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}, "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [{"/": "/a", "exclude": true}]}}}]"#
        let android = try #require(AssetLinksValidator.validate(Array(text.utf8)).file)
        let promise =
            #"{"android": [{"url": "https://example.com/a", "package": "com.example.app", "expect": "exclude"}]}"#
        #expect(
            ExpectationChecker.check(Array(promise.utf8), apple: nil, android: android, domain: "example.com")
                .diagnostics.isEmpty)
    }

    @Test(
        "entries that cannot be checked are EXP002",
        arguments: [
            "[]", #"{"apple": {}}"#, #"{"ios": []}"#, #"{"apple": [1]}"#,
            #"{"apple": [{"url": "https://example.com/a", "expect": "match"}]}"#,
            #"{"apple": [{"url": "https://example.com/a", "app": "A.b", "expect": "open"}]}"#,
            // Android's `unknown` is what the server cannot know, never a promise.
            #"{"android": [{"url": "https://example.com/a", "package": "a.b", "expect": "unknown"}]}"#,
            #"{"apple": [{"url": "not a url", "app": "A.b", "expect": "match"}]}"#,
            #"{"apple": [{"url": "https://example.com/a", "app": "A.b", "expect": "no_match", "except": 1}]}"#,
        ])
    func malformed(_ text: String) {
        #expect(Self.check(text).contains { $0.code == .malformedExpectation }, "\(text)")
    }

    @Test("a site without the platform's file fails every promise for it")
    func missingFile() {
        let found = ExpectationChecker.check(
            Array(Self.apple("https://example.com/buy/1", "match").utf8), apple: nil, android: nil, domain: nil)
        #expect(found.diagnostics.first?.message.contains("the site has no valid apple-app-site-association") == true)
    }
}
