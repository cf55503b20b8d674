import AssociationKit
import Testing

@testable import AASAServer
@testable import AASATransport

/// Google's `ListResponse` read as the watch compares it (docs/watches.md, "Google's view"), and
/// the grants of a site's assetlinks.json by meaning: table tests.
@Suite("Google's answers")
struct GoogleAnswerTests {
    static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")

    static func file(_ package: String = "com.example.app", rules: String? = nil, relation: String? = nil) -> String {
        let extensions = rules.map {
            #", "relation_extensions": {"delegate_permission/common.handle_all_urls": "#
                + #"{"dynamic_app_link_components": \#($0)}}"#
        }
        return #"[{"relation": ["\#(relation ?? AssetLinks.handleAllURLs)"]\#(extensions ?? ""), "#
            + #""target": {"namespace": "android_app", "package_name": "\#(package)", "#
            + #""sha256_cert_fingerprints": ["\#(fingerprint)"]}}]"#
    }

    static func answer(_ package: String = "com.example.app", rules: String? = nil, fingerprint: String? = nil)
        -> String
    {
        let extensions = rules.map { #", "relationExtensions": {"dynamic_app_link_components": \#($0)}"# }
        return #"{"statements": [{"source": {"web": {"site": "https://example.com."}}, "#
            + #""relation": "delegate_permission/common.handle_all_urls", "target": {"androidApp": "#
            + #"{"packageName": "\#(package)", "certificate": {"sha256Fingerprint": "#
            + #""\#(fingerprint ?? Self.fingerprint.lowercased())"}}}\#(extensions ?? "")}], "maxAge": "600s"}"#
    }

    static func meaning(_ file: String) -> MeaningFingerprint? {
        AppLinkGrants(assetLinks: Array(file.utf8))?.fingerprint
    }

    static func read(_ body: String, status: Int = 200) -> CacheAnswer {
        let bytes = Array(body.utf8)
        return CacheAnswer(
            listResponse: .success(HTTPClientResponse(status: status, headers: [], body: bytes, wireBytes: bytes.count))
        )
    }

    static let rules = #"[{"/": "/shop/*"}, {"/": "/account/*", "exclude": true}]"#

    @Test(
        "the same grants, written by the file and by Google, mean the same; others do not",
        arguments: [
            (file(), answer(), true),
            (file(rules: rules), answer(rules: rules), true),
            // Spacing inside the rules does not count.
            (file(rules: #"[ {"/" : "/shop/*"}, {"exclude": true, "/": "/account/*"} ]"#), answer(rules: rules), true),
            (file(rules: rules), answer(), false),
            (file(), answer(rules: rules), false),
            (file(), answer("com.example.other"), false),
            (file(), answer(fingerprint: Array(repeating: "CD", count: 32).joined(separator: ":")), false),
            // Only handle_all_urls counts: a file granting only login credentials grants Google none.
            (file(relation: AssetLinks.getLoginCredentials), #"{"statements": []}"#, true),
            (file(relation: AssetLinks.getLoginCredentials), #"{}"#, true),
        ])
    func byMeaning(file: String, answer: String, same: Bool) throws {
        let served = try #require(Self.meaning(file))
        let read = Self.read(answer)
        #expect((read == .copy(served)) == same, "\(read)")
    }

    @Test(
        "failing with Google's codes and its error lines; an error for anything not a ListResponse",
        arguments: [
            (
                #"{"errorCode": ["ERROR_CODE_FETCH_ERROR", "ERROR_CODE_REDIRECT"], "debugString": "#
                    + #""**** ERRORS ****\n* Error: unavailable: redirected.\n**** INFO ****\n* Info: none\n"}"#, 200,
                CacheAnswer.failing(
                    reason: "ERROR_CODE_FETCH_ERROR, ERROR_CODE_REDIRECT", details: "* Error: unavailable: redirected.")
            ),
            (
                #"{"errorCode": ["ERROR_CODE_WRONG_CONTENT_TYPE"]}"#, 200,
                .failing(reason: "ERROR_CODE_WRONG_CONTENT_TYPE", details: nil)
            ),
            ("", 500, .error("HTTP 500")),
            ("<html>quota</html>", 200, .error("not a Digital Asset Links ListResponse: not a JSON object")),
            ("[]", 200, .error("not a Digital Asset Links ListResponse: not a JSON object")),
            (#"{"statements": {}}"#, 200, .error("not a Digital Asset Links ListResponse: statements is not a list")),
            (
                #"{"statements": [1]}"#, 200,
                .error("not a Digital Asset Links ListResponse: a statement is not an object")
            ),
            (#"{"errorCode": "X"}"#, 200, .error("not a Digital Asset Links ListResponse: errorCode is not a list")),
        ])
    func failures(body: String, status: Int, expected: CacheAnswer) {
        #expect(Self.read(body, status: status) == expected)
    }

    @Test("a site's file that is not a list of statements has no meaning")
    func notAList() {
        #expect(Self.meaning(#"{"relation": []}"#) == nil)
        #expect(Self.meaning("[") == nil)
        #expect(Self.meaning("[]") == Self.meaning(Self.file(relation: AssetLinks.getLoginCredentials)))
    }
}
