import AssociationKit
import Testing

/// What `probe --google` says when Google's view and the origin's assetlinks.json differ, and
/// Google's view written back as a file for the matcher: table tests.
@Suite("Google's view against the origin's file")
struct GoogleGrantsDifferenceTests {
    static let print = GoogleAnswerTests.fingerprint
    static let rules = #"[{"/": "/shop/*"}]"#

    static func grants(_ file: String) throws -> AppLinkGrants {
        try #require(AppLinkGrants(assetLinks: Array(file.utf8)))
    }

    static func view(_ answer: String) throws -> AppLinkGrants {
        guard case .statements(let grants) = GoogleListResponse(Array(answer.utf8)) else {
            Issue.record("not statements: \(answer)")
            return AppLinkGrants([])
        }
        return grants
    }

    @Test(
        "each differing pair named, nothing for the same meaning",
        arguments: [
            (GoogleAnswerTests.file(), GoogleAnswerTests.answer(), [String]()),
            (
                GoogleAnswerTests.file("com.example.ours"), GoogleAnswerTests.answer("com.example.theirs"),
                ["com.example.ours \(print): in mine only", "com.example.theirs \(print): in theirs only"]
            ),
            (
                GoogleAnswerTests.file(rules: rules), GoogleAnswerTests.answer(),
                [#"com.example.app \#(print): other dynamic rules (mine: [{"/":"/shop/*"}]; theirs: none)"#]
            ),
        ])
    func differences(file: String, answer: String, expected: [String]) throws {
        let lines = try Self.grants(file).differences(from: try Self.view(answer), mine: "mine", theirs: "theirs")
        #expect(lines == expected)
    }

    @Test("Google's view written as an assetlinks.json means the same grants, rules included")
    func roundTrip() throws {
        for answer in [GoogleAnswerTests.answer(), GoogleAnswerTests.answer(rules: Self.rules)] {
            let view = try Self.view(answer)
            let file = AssetLinksValidator.validate(view.assetLinks)
            #expect(!file.diagnostics.contains { $0.severity == .error }, "\(file.diagnostics)")
            #expect(AppLinkGrants(assetLinks: view.assetLinks) == view)
        }
    }

    @Test("errorCode is failing with debugString's error lines; other shapes are unreadable")
    func readings() {
        let failing = #"{"debugString": "  * Error: unavailable: x\nNone\n", "errorCode": ["ERROR_CODE_REDIRECT"]}"#
        #expect(
            GoogleListResponse(Array(failing.utf8))
                == .failing(codes: ["ERROR_CODE_REDIRECT"], errors: ["* Error: unavailable: x"]))
        #expect(
            GoogleListResponse(Array("[]".utf8))
                == .unreadable("not a Digital Asset Links ListResponse: not a JSON object"))
        #expect(
            GoogleListResponse.query("https://g.test/v1/statements:list?a=1", domain: "example.com")
                == "https://g.test/v1/statements:list?a=1&source.web.site=https://example.com"
                + "&relation=delegate_permission/common.handle_all_urls&return_relation_extensions=true")
    }
}
