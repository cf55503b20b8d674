import Foundation
import TestSupport
import Testing

/// `match --sites` for both platforms and `validate` comparing a site's two files (`XPL001`,
/// `XPL002`), on the example sites and on a site whose files disagree.
@Suite("aasa-server match and validate: both platforms")
struct BothPlatformsTests {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let apple = """
        {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": [
          {"/": "/account/*", "exclude": true},
          {"/": "*"}
        ]}]}}
        """

    /// The shop's assetlinks.json: `rules` nil has no dynamic rules.
    static func android(_ rules: String?) -> String {
        let extensions = rules.map {
            ",\n  \"relation_extensions\": {\"delegate_permission/common.handle_all_urls\": "
                + "{\"dynamic_app_link_components\": [\n\($0)\n]}}"
        }
        return """
            [{"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["\(fingerprint)"]}\(extensions ?? "")}]
            """
    }

    /// A sites folder with `shop.test` holding both files.
    static func sites(rules: String?) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("sites/shop.test/apple-app-site-association", apple)
        try folder.write("sites/shop.test/assetlinks.json", android(rules))
        return folder
    }

    @Test("match --sites: Apple's and Android's decisions per URL, on several hosts in one call")
    func sideBySide() throws {
        let output = try BinaryRunner.run([
            "match", "--sites", "Config/sites", "https://example.com/account/1",
            "https://legacy.example.com/wwdc/news/",
        ])
        #expect(output.status == 1, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("  apple    exclude   ABCDE12345.com.example.restaurant ") })
        #expect(
            lines.contains {
                $0.hasPrefix("  android  exclude   com.example.restaurant ")
                    && $0.contains("statements[0].dynamic_app_link_components[1]")
            }, "\(output.stdout)")
        #expect(lines.contains { $0.hasPrefix("  apple    match     9JA89QQLNQ.com.apple.wwdc ") })
        #expect(lines.contains("  android  (the site has no assetlinks.json)"))
        let opened = try BinaryRunner.run([
            "match", "--sites", "Config/sites", "https://example.com/en_US/pizza/",
            "https://legacy.example.com/wwdc/news/",
        ])
        #expect(opened.status == 0, "\(opened.stdout)")
    }

    @Test("match --sites --json: Apple's results as before, android with each package's decision and rule")
    func json() throws {
        let output = try BinaryRunner.run([
            "match", "--json", "--sites", "Config/sites", "https://example.com/en_US/pizza/",
            "https://legacy.example.com/wwdc/news/",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let documents = try output.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(documents.count == 2)
        #expect(documents.first?["domain"] as? String == "example.com")
        let apple = try #require((documents.first?["results"] as? [[String: Any]])?.first)
        #expect(apple["appID"] as? String == "ABCDE12345.com.example.restaurant")
        #expect(apple["decision"] as? String == "match")
        #expect(apple["componentIndex"] as? Int == 2)
        let android = try #require(documents.first?["android"] as? [[String: Any]])
        #expect(android.count == 1)
        #expect(android.first?["package"] as? String == "com.example.restaurant")
        #expect(android.first?["decision"] as? String == "match")
        #expect(android.first?["statementIndex"] as? Int == 0)
        #expect(android.first?["ruleIndex"] as? Int == 2)
        #expect(android.first?["rule"] as? String == #"{ "/": "/*_*/*/" }"#)
        #expect((android.first?["reason"] as? String)?.isEmpty == false)
        // The legacy site has no assetlinks.json: null, so every object has the same keys.
        #expect(documents.last?["domain"] as? String == "legacy.example.com")
        #expect(documents.last?.keys.contains("android") == true)
        #expect(documents.last?["android"] is NSNull)
    }

    @Test("without dynamic rules Android's decision is unknown, and the text says the manifest decides")
    func unknown() throws {
        let folder = try Self.sites(rules: nil)
        let text = try BinaryRunner.run(["match", "--sites", "sites", "https://shop.test/account/1"], in: folder.url)
        // Apple keeps it on the web, a known answer: exit 1.
        #expect(text.status == 1)
        #expect(text.stdout.contains("  android  unknown   com.example.shop "), "\(text.stdout)")
        #expect(text.stdout.contains("the app's manifest decides which paths open it, which the server cannot see"))
        let json = try BinaryRunner.run(
            ["match", "--json", "--sites", "sites", "https://shop.test/buy/1"], in: folder.url)
        // Apple opens it, Android leaves it to the manifest: nothing keeps it on the web.
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let android = try #require((document["android"] as? [[String: Any]])?.first)
        #expect(android["decision"] as? String == "unknown")
        #expect(android["statementIndex"] as? Int == 0)
        #expect(android["ruleIndex"] is NSNull && android["rule"] is NSNull)
        // --android answers for Android only, as before, now with `unknown`.
        let only = try BinaryRunner.run(
            ["match", "--sites", "sites", "--android", "https://shop.test/buy/1"], in: folder.url)
        #expect(only.status == 0)
        #expect(only.stdout.contains("  unknown   com.example.shop  statements[0] grants"), "\(only.stdout)")
        #expect(!only.stdout.contains("apple"))
        // --app with a package: only Android lists it.
        let app = try BinaryRunner.run(
            ["match", "--sites", "sites", "--app", "com.example.shop", "https://shop.test/buy/1"], in: folder.url)
        #expect(!app.stdout.contains("ABCDE12345"), "\(app.stdout)")
        #expect(app.stdout.contains("  android  unknown   com.example.shop "), "\(app.stdout)")
    }

    @Test("validate: the example sites' two files agree")
    func exampleAgrees() throws {
        let output = try BinaryRunner.run(["validate", "--verbose", "--strict", "Config/sites"])
        #expect(output.status == 0, "\(output.stdout)")
        #expect(!output.stdout.contains("[XPL"), "\(output.stdout)")
    }

    @Test("validate: XPL001 where the files disagree, at Android's rule; a warning that --strict fails on")
    func disagreement() throws {
        let folder = try Self.sites(rules: #"{"/": "/help/*"},"# + "\n" + #"{"/": "*"}"#)
        let output = try BinaryRunner.run(["validate", "sites"], in: folder.url)
        #expect(output.status == 0)
        let line = try #require(output.stdout.split(separator: "\n").first { $0.contains("[XPL001]") })
        #expect(line.hasPrefix("sites/shop.test/assetlinks.json:5:1: warning: https://shop.test/account/x opens "))
        #expect(line.contains(#"rule {"/": "*"}"#) && line.contains(#"rule {"/": "/account/*", "exclude": true}"#))
        #expect(line.contains("apple-app-site-association line 2"))
        #expect(try BinaryRunner.run(["validate", "--strict", "sites"], in: folder.url).status == 1)
        let github = try BinaryRunner.run(["validate", "--format", "github", "sites"], in: folder.url)
        #expect(
            github.stdout.contains("::warning file=sites/shop.test/assetlinks.json,line=5,col=1,title=XPL001::"),
            "\(github.stdout)")
        let sarif = try BinaryRunner.run(["validate", "--format", "sarif", "sites"], in: folder.url)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let result = try #require((run["results"] as? [[String: Any]])?.first { $0["ruleId"] as? String == "XPL001" })
        #expect(result["level"] as? String == "warning")
        // The same rules in the same order agree.
        let agreeing = try Self.sites(rules: #"{"/": "/account/*", "exclude": true}, {"/": "*"}"#)
        let clean = try BinaryRunner.run(["validate", "--strict", "--verbose", "sites"], in: agreeing.url)
        #expect(clean.status == 0 && !clean.stdout.contains("[XPL"), "\(clean.stdout)")
    }

    @Test("validate: past 200 findings in the file, the comparison's are counted, not listed")
    func limit() throws {
        let folder = try TemporaryFolder()
        let components = (0..<250).map { #"{"/": "/p\#($0)/*"}"# }.joined(separator: ", ")
        try folder.write(
            "sites/shop.test/apple-app-site-association",
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": [\#(components)]}]}}"#
        )
        try folder.write("sites/shop.test/assetlinks.json", Self.android(#"{"/": "/other"}"#))
        let output = try BinaryRunner.run(["validate", "sites"], in: folder.url)
        // Each of Apple's 250 rules opens a URL Android keeps on the web, and Android's opens one iOS does not.
        #expect(output.stdout.split(separator: "\n").filter { $0.hasSuffix("[XPL001]") }.count == 200)
        #expect(output.stdout.contains("and 51 more not shown (0 errors, 51 warnings, 0 notes)"), "\(output.stdout)")
        #expect(output.stdout.contains("0 errors, 251 warnings"))
    }

    @Test("validate: XPL002 without dynamic rules gives them, shown without --verbose and in every format")
    func missingRules() throws {
        let folder = try Self.sites(rules: nil)
        let output = try BinaryRunner.run(["validate", "--strict", "sites"], in: folder.url)
        // A note: --strict passes.
        #expect(output.status == 0)
        let line = try #require(output.stdout.split(separator: "\n").first { $0.contains("[XPL002]") })
        #expect(line.hasPrefix("sites/shop.test/assetlinks.json:1:2: info: "))
        #expect(line.contains(#""dynamic_app_link_components": [{"/": "/account/*", "exclude": true}, {"/": "*"}]"#))
        #expect(!output.stdout.contains("[XPL001]"))
        let github = try BinaryRunner.run(["validate", "--format", "github", "sites"], in: folder.url)
        #expect(github.stdout.contains("::notice file=sites/shop.test/assetlinks.json,line=1,col=2,title=XPL002::"))
        let json = try BinaryRunner.run(["validate", "--json", "sites"], in: folder.url)
        #expect(json.stdout.contains(#""code" : "XPL002""#), "\(json.stdout)")
    }

    @Test("the status page's URL tester shows both platforms side by side")
    func statusPage() throws {
        let folder = try Self.sites(rules: nil)
        let server = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        let port = try #require(server.adminPort)
        let page = String(
            decoding: try Curl.request("http://127.0.0.1:\(port)/?url=https%3A%2F%2Fshop.test%2Faccount%2F1").body,
            as: UTF8.self)
        #expect(
            page.contains(
                #"<tr class="decision"><td>iOS</td><td>ABCDE12345.com.example.shop</td><td class="warn">exclude</td>"#),
            "\(page)")
        #expect(
            page.contains(
                #"<tr class="decision"><td>Android</td><td>com.example.shop</td><td class="warn">unknown</td>"#))
        #expect(page.contains("the app&#39;s manifest decides") || page.contains("the app's manifest decides"))
    }
}
