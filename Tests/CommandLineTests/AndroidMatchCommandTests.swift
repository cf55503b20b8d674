import Foundation
import TestSupport
import Testing

/// `match --json` by the real binary: the `android` decision of a site's assetlinks.json is
/// Android's (docs/association-files.md, "Android's matching"), on rows of issue 49's table.
@Suite("aasa-server match --json: Android's decision")
struct AndroidMatchCommandTests {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    static func assetLinks(_ rules: String) -> String {
        #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "#
            + #""package_name": "com.example.app", "sha256_cert_fingerprints": ["\#(fingerprint)"]}, "#
            + #""relation_extensions": {"delegate_permission/common.handle_all_urls": "#
            + #"{"dynamic_app_link_components": [\#(rules)]}}}]"#
    }

    /// Rules, URL, Android's decision.
    static let rows: [(String, String, String)] = [
        (#"{"/": "/products/*/reviews"}"#, "https://example.com/products/a/b/reviews", "no_match"),
        (#"{"/": "/café"}"#, "https://example.com/caf%C3%A9", "match"),
        (#"{"?": {"dl": "*"}}"#, "https://example.com/a", "no_match"),
        (#"{"exclude": true}"#, "https://example.com/a", "no_match"),
        ("", "https://example.com/a", "unknown"),
        (#"{"/": "/a", "comments": "documented by Google"}"#, "https://example.com/a", "match"),
    ]

    @Test("each row's android decision, from the binary", arguments: rows)
    func row(_ row: (String, String, String)) throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", SiteFixtures.oneAppAASA(path: "/*"))
        try folder.write("sites/example.com/assetlinks.json", Self.assetLinks(row.0))
        let output = try BinaryRunner.run(
            ["match", "--json", "--sites", "sites", "--domain", "example.com", row.1], in: folder.url)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output)")
        let android = try #require((document["android"] as? [[String: Any]])?.first, "\(output.stdout)")
        #expect(android["package"] as? String == "com.example.app")
        #expect(android["decision"] as? String == row.2, "\(row.0) \(row.1): \(android)")
        #expect(!output.stderr.contains("ADL015"), "\(output.stderr)")
    }
}
