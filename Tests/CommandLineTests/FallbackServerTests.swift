import Foundation
import TestSupport
import Testing

/// fallback.json served by the real binary, asked with curl and raw requests as a browser,
/// a phone, a crawler or an attacker would (docs/fallback.md, "The link domain for people without the app").
@Suite("fallback.json served", .serialized)
final class FallbackServerTests {
    static let apple =
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "#
        + #""components": [{"/": "/account/*", "exclude": true}, {"/": "/p/*"}]}]}}"#
    static let android = """
        [{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app",
          "package_name": "com.example.app", "sha256_cert_fingerprints":
          ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]
        """
    static let fallback = """
        {"web": "https://www.example.com{path}{query}", "appStoreID": "1234567890", "playPackage": "com.example.app",
         "preview": {"title": "Example <Pizza>", "description": "Order", "image": "https://www.example.com/card.png"},
         "rules": [{"/": "/shop/*", "web": "https://shop.example.com{path}{query}"},
                   {"/": "/internal/*", "exclude": true}]}
        """
    static let desktop = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.5 Safari"
    static let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"
    static let android14 = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari"
    static let slack = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"

    let folder: TemporaryFolder
    let server: RunningServer
    var base: String { "http://127.0.0.1:\(server.port)" }

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.apple)
        try folder.write("sites/example.com/assetlinks.json", Self.android)
        try folder.write("sites/example.com/fallback.json", Self.fallback)
        try folder.write("sites/plain.example/apple-app-site-association", Self.apple)
        server = try RunningServer(in: folder.url, ["--sites", "sites"])
    }

    deinit {
        _ = server.stop()
    }

    func get(_ path: String, agent: String? = nil, host: String = "example.com", head: Bool = false) throws
        -> Curl.Response
    {
        try Curl.request(
            base + path, ["-H", "Host: \(host)"] + (agent.map { ["-A", $0] } ?? []) + (head ? ["-I"] : []))
    }

    @Test("each decision: 302 for a desktop, the App Store page for an iPhone, Google Play for Android, a Slack card")
    func decisions() throws {
        let redirect = try get("/p/1?x=2", agent: Self.desktop)
        #expect(redirect.status == 302)
        #expect(redirect.headers["location"] == "https://www.example.com/p/1?x=2")
        let iPhone = try get("/p/1?x=2", agent: Self.iPhone)
        let page = String(decoding: iPhone.body, as: UTF8.self)
        #expect(iPhone.status == 200)
        #expect(iPhone.headers["content-type"] == "text/html; charset=utf-8")
        #expect(
            page.contains(
                #"<meta name="apple-itunes-app" content="app-id=1234567890, app-argument=https://example.com/p/1?x=2">"#
            ))
        #expect(page.contains(#"href="https://apps.apple.com/app/id1234567890""#))
        #expect(page.contains(#"href="https://www.example.com/p/1?x=2""#))
        #expect(page.contains("Example &lt;Pizza&gt;"))
        // A URL the association file keeps on the web: the iPhone is redirected.
        #expect(try get("/account/1", agent: Self.iPhone).status == 302)
        let android = try get("/p/1", agent: Self.android14)
        #expect(android.status == 200)
        #expect(
            String(decoding: android.body, as: UTF8.self).contains(
                #"href="https://play.google.com/store/apps/details?id=com.example.app&amp;referrer=link%3D"#
                    + #"https%253A%252F%252Fexample.com%252Fp%252F1""#))
        let card = String(decoding: try get("/p/1", agent: Self.slack).body, as: UTF8.self)
        #expect(card.contains(#"<meta property="og:title" content="Example &lt;Pizza&gt;">"#))
        #expect(card.contains(#"<meta property="og:url" content="https://example.com/p/1">"#))
        #expect(card.contains(#"<meta property="og:image" content="https://www.example.com/card.png">"#))
        #expect(card.contains(#"<meta name="robots" content="noindex">"#))
        #expect(try get("/internal/x", agent: Self.slack).status == 404)
        let shop = try get("/shop/a?b=c", agent: Self.desktop)
        #expect(shop.headers["location"] == "https://shop.example.com/shop/a?b=c")
        for response in [redirect, iPhone, android, try get("/internal/x")] {
            #expect(response.headers["vary"] == "User-Agent")
            #expect(response.headers["cache-control"] == "private, max-age=60")
        }
        let head = try get("/p/1", agent: Self.iPhone, head: true)
        #expect(head.status == 200 && head.body.isEmpty)
    }

    @Test("a link cannot add Smart App Banner parameters: its commas are percent-encoded in app-argument")
    func bannerArgument() throws {
        let page = String(decoding: try get("/p/12?table=7,app-id=6660000000", agent: Self.iPhone).body, as: UTF8.self)
        #expect(
            page.contains(
                #"content="app-id=1234567890, app-argument=https://example.com/p/12?table=7%2Capp-id=6660000000">"#),
            "\(page)")
        let banner = page.split(separator: "\n").filter { $0.contains("apple-itunes-app") }
        #expect(banner.count == 1 && !banner[0].contains(",app-id=666"))
        // The web link keeps the URL as it was opened.
        #expect(page.contains(#"href="https://www.example.com/p/12?table=7,app-id=6660000000""#))
    }

    @Test("association files, ACME challenges, fallback.json itself and sites without one are unchanged")
    func unchanged() throws {
        let file = try get("/.well-known/apple-app-site-association")
        #expect(file.status == 200)
        #expect(file.headers["content-type"] == "application/json")
        #expect(try get("/.well-known/assetlinks.json").status == 200)
        #expect(try get("/.well-known/acme-challenge/token", agent: Self.iPhone).status == 404)
        let own = try get("/fallback.json")
        #expect(!String(decoding: own.body, as: UTF8.self).contains("appStoreID"))
        #expect(own.headers["location"] == "https://www.example.com/fallback.json")
        let plain = try get("/p/1", agent: Self.iPhone, host: "plain.example")
        #expect(plain.status == 404)
        #expect(plain.headers["vary"] == nil)
    }

    /// Request targets that try to move the redirect or add a header.
    static let hostile: [(target: String, location: String?)] = [
        ("//evil.example", "https://www.example.com//evil.example"),
        ("/%2F%2Fevil.example", "https://www.example.com/%2F%2Fevil.example"),
        ("/\\evil.example", "https://www.example.com/%5Cevil.example"),
        ("/@evil.example", "https://www.example.com/@evil.example"),
        ("/x?@evil.example", "https://www.example.com/x?@evil.example"),
        ("http://example.com", "https://www.example.com/"),
        ("http://example.com?//evil.example", "https://www.example.com/?//evil.example"),
        ("/a\rSet-Cookie:x=1", nil),
        ("/a%0D%0ASet-Cookie:x=1", "https://www.example.com/a%0D%0ASet-Cookie:x=1"),
    ]

    @Test("no request moves a redirect to another host or scheme, or adds a header", arguments: hostile)
    func hostileTargets(target: String, location: String?) throws {
        let answer = try RawClient.exchange(
            port: server.port, "GET \(target) HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
        let lines = answer.components(separatedBy: "\r\n")
        guard let location else {
            #expect(answer.hasPrefix("HTTP/1.1 400 "), "\(answer)")
            return
        }
        #expect(answer.hasPrefix("HTTP/1.1 302 Found\r\n"), "\(answer)")
        #expect(lines.contains("Location: \(location)"), "\(answer)")
        #expect(!lines.contains { $0.lowercased().hasPrefix("set-cookie") })
    }

    @Test("metrics count answers by kind; /sites.json says which sites have a fallback")
    func explained() throws {
        _ = try get("/p/1", agent: Self.desktop)
        _ = try get("/p/1", agent: Self.iPhone)
        _ = try get("/p/1", agent: Self.slack)
        _ = try get("/internal/1")
        let admin = "http://127.0.0.1:\(try #require(server.adminPort))"
        #expect(
            try eventually(10) {
                let metrics = String(decoding: try Curl.request(admin + "/metrics").body, as: UTF8.self)
                return ["redirect", "page", "preview", "not_found"].allSatisfy {
                    metrics.contains("aasa_fallback_responses_total{kind=\"\($0)\"} ")
                        && !metrics.contains("aasa_fallback_responses_total{kind=\"\($0)\"} 0\n")
                }
            })
        let sites = String(decoding: try Curl.request(admin + "/sites.json").body, as: UTF8.self)
        #expect(sites.contains(#""fallback":true"#) && sites.contains(#""fallback":false"#))
        let tester = String(
            decoding: try Curl.request(admin + "/?url=https%3A%2F%2Fexample.com%2Fp%2F1").body, as: UTF8.self)
        #expect(tester.contains("id=\"fallback\""))
        #expect(tester.contains("<code>https://www.example.com/p/1</code>"))
        #expect(tester.contains("App Store page") && tester.contains("Google Play page"))
    }

    @Test("a broken fallback.json stops start-up with its line; a reload keeps the last good one")
    func validatedAndReloaded() throws {
        let broken = try TemporaryFolder()
        try broken.write("sites/example.com/apple-app-site-association", Self.apple)
        try broken.write("sites/example.com/fallback.json", "{\n  \"web\": \"https://{path}\"\n}")
        let refused = try BinaryRunner.run(
            ["serve", "--sites", "sites", "--http", "127.0.0.1:0", "--admin", "off"], in: broken.url)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("sites/example.com/fallback.json:2:10: error: "), "\(refused.stderr)")
        #expect(refused.stderr.contains("[FBK002]"))

        try folder.write("sites/example.com/fallback.json", #"{"web": "https://{path}"}"#)
        #expect(
            try eventually(10) {
                let admin = "http://127.0.0.1:\(try #require(server.adminPort))"
                let sites = String(decoding: try Curl.request(admin + "/sites.json").body, as: UTF8.self)
                return sites.contains("kept-last-good")
            })
        #expect(try get("/p/1", agent: Self.desktop).headers["location"] == "https://www.example.com/p/1")
        try folder.write("sites/example.com/fallback.json", #"{"web": "https://new.example.com{path}"}"#)
        #expect(
            try eventually(10) {
                try get("/p/1", agent: Self.desktop).headers["location"] == "https://new.example.com/p/1"
            })
    }

    @Test("validate reports fallback.json problems in every format, with file, line, column and code")
    func validateFormats() throws {
        let broken = try TemporaryFolder()
        try broken.write("sites/example.com/apple-app-site-association", Self.apple)
        try broken.write(
            "sites/example.com/fallback.json",
            "{\n  \"web\": \"https://www.example.com{path}\",\n  \"appStoreId\": \"1\"\n}")
        let text = try BinaryRunner.run(["validate", "sites"], in: broken.url)
        #expect(text.status == 1)
        #expect(
            text.stdout.contains(
                "sites/example.com/fallback.json:3:3: error: unknown key \"appStoreId\" in fallback.json. "
                    + "Did you mean \"appStoreID\"? (at /appStoreId) [FBK007]"), "\(text.stdout)")
        let github = try BinaryRunner.run(["validate", "--format", "github", "sites"], in: broken.url)
        #expect(github.stdout.contains("::error file=sites/example.com/fallback.json,line=3,col=3,title=FBK007::"))
        let sarif = try BinaryRunner.run(["validate", "--format", "sarif", "sites"], in: broken.url)
        #expect(sarif.stdout.contains("\"ruleId\" : \"FBK007\"") || sarif.stdout.contains("\"ruleId\":\"FBK007\""))
    }
}
