import AssociationKit
import Testing

@Suite("fallback.json: templates, clients, decisions, validation")
struct FallbackTests {
    static func expand(_ template: String, _ target: String) throws -> String {
        let parsed = try URLTemplate(template)
        let bytes = Array(target.utf8)
        let question = bytes.firstIndex(of: UInt8(ascii: "?"))
        return parsed.expand(
            path: Array(bytes[..<(question ?? bytes.count)]), query: question.map { Array(bytes[($0 + 1)...]) })
    }

    /// What no request path may do to a redirect: leave the template's host or scheme, or
    /// carry a byte that ends a header line or starts markup.
    static let hostile: [(target: String, expected: String)] = [
        ("//evil.example", "https://www.example.com//evil.example"),
        ("/%2F%2Fevil.example", "https://www.example.com/%2F%2Fevil.example"),
        ("/\\evil.example", "https://www.example.com/%5Cevil.example"),
        ("/\\\\evil.example/", "https://www.example.com/%5C%5Cevil.example/"),
        ("/@evil.example", "https://www.example.com/@evil.example"),
        ("/a\r\nSet-Cookie: x=1", "https://www.example.com/a%0D%0ASet-Cookie:%20x=1"),
        ("/\"><script>", "https://www.example.com/%22%3E%3Cscript%3E"),
        ("/%zz%4", "https://www.example.com/%25zz%254"),
        ("/caf\u{e9}", "https://www.example.com/caf%C3%A9"),
        ("/p?q=1&r=<x>#f", "https://www.example.com/p?q=1&r=%3Cx%3E%23f"),
        ("", "https://www.example.com/"),
        ("?only", "https://www.example.com/?only"),
    ]

    @Test("a request path stays a path of the template's host, percent-encoded", arguments: hostile)
    func hostilePaths(target: String, expected: String) throws {
        let url = try Self.expand("https://www.example.com{path}{query}", target)
        #expect(url == expected)
        #expect(url.hasPrefix("https://www.example.com/"))
        #expect(!url.utf8.contains { $0 < 0x21 || $0 > 0x7E || $0 == UInt8(ascii: "\\") || $0 == 0x22 || $0 == 0x3C })
    }

    static let templates: [(String, Bool)] = [
        ("https://www.example.com{path}{query}", true),
        ("http://example.com:8080/app{path}", true),
        ("https://example.com/fixed", true),
        ("https://example.com", true),
        ("HTTPS://example.com{query}", true),
        ("ftp://example.com{path}", false),
        ("//example.com{path}", false),
        ("https://{path}", false),
        ("https://evil{path}.example.com", true),
        ("https://x{query}.example.com", true),
        ("https://ex ample.com", false),
        ("https://example.com/\\{path}", false),
        ("https://example.com{host}", false),
        ("https://example.com{path", false),
        ("https://example.com/}", false),
        ("javascript:alert(1)", false),
    ]

    @Test("templates: absolute http(s) with a fixed host, only {path} and {query}", arguments: templates)
    func templateShapes(text: String, valid: Bool) throws {
        let parsed = try? URLTemplate(text)
        #expect((parsed != nil) == valid, "\(text)")
        // Whatever follows a host in the template, a request cannot change the host.
        if let parsed {
            let url = parsed.expand(path: Array("//evil.example".utf8), query: Array("@evil".utf8))
            #expect(url.hasPrefix(String(decoding: parsed.origin, as: UTF8.self)))
        }
    }

    static let agents: [(String, FallbackClient)] = [
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15", .desktop),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148", .iOS),
        ("Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15", .iOS),
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36", .android),
        ("Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", .crawler),
        ("facebookexternalhit/1.1 Facebot Twitterbot/1.0", .crawler),
        ("WhatsApp/2.23.20.0 A", .crawler),
        ("Mozilla/5.0 (Linux; Android 14) TelegramBot (like TwitterBot)", .crawler),
        ("Discordbot/2.0", .crawler),
        ("LinkedInBot/1.0", .crawler),
        ("curl/8.5.0", .desktop),
        ("", .desktop),
        ("IPHONE", .iOS),
        ("Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", .crawler),
        ("SkypeUriPreview Preview/0.5", .crawler), ("Pinterestbot/1.0", .crawler), ("redditbot/1.0", .crawler),
        ("Mastodon/4.2 (http.rb/5.1; +https://m.example/)", .crawler), ("Embedly/0.2", .crawler),
        ("Iframely/1.3.1", .crawler), ("Mozilla/5.0 (iPod touch; CPU iPhone OS 15_0)", .iOS),
        ("Safari like Macintosh Intel", .desktop), ("an", .desktop), ("x", .desktop),
    ]

    @Test("clients by User-Agent", arguments: agents)
    func clients(agent: String, expected: FallbackClient) {
        #expect(FallbackClient(userAgent: agent) == expected)
    }

    static let apple = """
        {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"],
          "components": [{"/": "/account/*", "exclude": true}, {"/": "/buy/*"}, {"/": "/shop/*"}]}]}}
        """
    static let android = """
        [{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app",
          "package_name": "com.example.app", "sha256_cert_fingerprints":
          ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]},
          "relation_extensions": {"delegate_permission/common.handle_all_urls":
          {"dynamic_app_link_components": [{"/": "/buy/*"}]}}}]
        """
    static let fallback = """
        {"web": "https://www.example.com{path}{query}", "appStoreID": "123", "playPackage": "com.example.app",
         "preview": {"title": "T"},
         "rules": [{"/": "/shop/*", "web": "https://shop.example.com{path}"}, {"/": "/internal/*", "exclude": true}]}
        """

    static func plan(_ fallback: String = fallback) throws -> FallbackPlan {
        let file = try #require(FallbackValidator.validate(Array(fallback.utf8)).file)
        return FallbackPlan(
            file: file, apple: AssociationFileValidator.validate(Array(apple.utf8)).file,
            android: AssetLinksValidator.validate(Array(android.utf8)).file)
    }

    /// The five decisions in their order: exclude, preview, App Store page, Google Play page, redirect.
    static let decisions: [(url: String, client: FallbackClient, kind: FallbackDecision.Kind, destination: String)] = [
        ("https://example.com/internal/x", .crawler, .notFound, "https://www.example.com/internal/x"),
        ("https://example.com/internal/x", .iOS, .notFound, "https://www.example.com/internal/x"),
        ("https://example.com/buy/1", .crawler, .preview, "https://www.example.com/buy/1"),
        ("https://example.com/buy/1", .iOS, .page, "https://www.example.com/buy/1"),
        ("https://example.com/account/1", .iOS, .redirect, "https://www.example.com/account/1"),
        ("https://example.com/buy/1?a=b", .android, .page, "https://www.example.com/buy/1?a=b"),
        ("https://example.com/shop/1", .android, .redirect, "https://shop.example.com/shop/1"),
        ("https://example.com/shop/1", .iOS, .page, "https://shop.example.com/shop/1"),
        ("https://example.com/buy/1", .desktop, .redirect, "https://www.example.com/buy/1"),
        ("https://example.com/other", .iOS, .redirect, "https://www.example.com/other"),
    ]

    @Test("the five decisions, first matching rule first", arguments: decisions)
    func decide(url: String, client: FallbackClient, kind: FallbackDecision.Kind, destination: String) throws {
        let answer = try #require(try Self.plan().explain(url).first { $0.client == client })
        #expect(answer.kind == kind)
        #expect(answer.destination == destination)
        #expect(answer.status == (kind == .redirect ? 302 : kind == .notFound ? 404 : 200))
    }

    @Test("without preview, appStoreID or playPackage every client is redirected")
    func minimal() throws {
        let plan = try Self.plan(#"{"web": "https://www.example.com{path}"}"#)
        for answer in try plan.explain("https://example.com/buy/1") {
            #expect(answer.kind == .redirect)
        }
    }

    /// Each code both ways: a file that has the problem, and the clean file that has not.
    static let problems: [(String, DiagnosticCode)] = [
        (#"{"appStoreID": "1"}"#, .fallbackMissingWeb),
        (#"{"web": "ftp://x.example{path}"}"#, .fallbackInvalidURL),
        (#"{"web": "https://{path}"}"#, .fallbackInvalidURL),
        (#"{"web": "https://x.example", "preview": {"title": "t", "image": "/card.png"}}"#, .fallbackInvalidURL),
        (#"{"web": "https://x.example{host}"}"#, .fallbackUnknownPlaceholder),
        (#"{"web": "https://x.example", "appStoreID": "id123"}"#, .fallbackInvalidAppStoreID),
        (#"{"web": "https://x.example", "appStoreID": 123}"#, .fallbackInvalidAppStoreID),
        (#"{"web": "https://x.example", "playPackage": "example"}"#, .fallbackInvalidPackage),
        (#"{"web": "https://x.example", "rules": [{"/": "/a b", "exclude": true}]}"#, .fallbackInvalidPattern),
        (#"{"web": "https://x.example", "rules": [{"/": "/$(nope)", "exclude": true}]}"#, .fallbackInvalidPattern),
        (#"{"web": "https://x.example", "rules": [{"/": "/$(lang", "exclude": true}]}"#, .fallbackInvalidPattern),
        (#"{"web": "https://x.example", "Web": "x"}"#, .fallbackUnknownKey),
        (#"{"web": "https://x.example", "rules": [{"/": "/a", "exlude": true}]}"#, .fallbackUnknownKey),
        (#"{"web": "https://x.example", "rules": [{"/": "/a"}]}"#, .fallbackWrongType),
        (#"{"web": "https://x.example", "rules": {"/": "/a"}}"#, .fallbackWrongType),
        (#"["https://x.example"]"#, .fallbackWrongType),
        (#"{"web": "https://x.example", "icon": "http://x.example/icon.png"}"#, .fallbackInsecureIcon),
        (#"{"web": "https://x.example", "icon": "https://x.example{path}"}"#, .fallbackInsecureIcon),
        (##"{"web": "https://x.example", "accentColor": "#abc"}"##, .fallbackInvalidColor),
        (#"{"web": "https://x.example", "strings": {"de": {"titel": "x"}}}"#, .fallbackUnknownText),
        (#"{"web": "https://x.example", "strings": {"en_US": {"title": "x"}}}"#, .fallbackInvalidLanguage),
        (#"{"web": "https://x.example", "strings": {"de": "x"}}"#, .fallbackWrongType),
        (#"{"web": "https://x.example",}"#, .jsonTrailingComma),
    ]

    @Test("each problem has its code, a line and a pointer; the file then decodes to nothing", arguments: problems)
    func problem(text: String, code: DiagnosticCode) {
        let report = FallbackValidator.validate(Array(text.utf8))
        #expect(report.diagnostics.map(\.code).contains(code), "\(report.diagnostics)")
        #expect(report.diagnostics.allSatisfy { $0.location.line >= 1 })
        #expect(report.file == nil)
    }

    @Test("every FBK code has a case here")
    func everyCodeCovered() {
        let covered = Set(Self.problems.map(\.1))
        let missing = DiagnosticCode.allCases.filter { $0.rawValue.hasPrefix("FBK") && !covered.contains($0) }
        #expect(missing.isEmpty)
    }

    @Test("the example of the README is clean")
    func clean() {
        let report = FallbackValidator.validate(Array(Self.fallback.utf8))
        #expect(report.diagnostics.isEmpty)
        #expect(report.file?.rules.count == 2)
    }
}

@Suite("fallback.json: the request path's quick rule check agrees with the matcher")
struct FallbackPrefilterTests {
    static let patterns = [
        #"{"/": "/buy"}"#, #"{"/": "/buy/*"}"#, #"{"/": "buy"}"#, #"{"/": "//buy//"}"#, #"{"/": "/b?y/*"}"#,
        #"{"/": "/BUY", "caseSensitive": false}"#, #"{"/": "/a b", "percentEncoded": false}"#,
        #"{"/": "/$(lang)/buy"}"#, #"{"?": {"x": "1"}}"#, #"{"/": "/"}"#, #"{"/": "/*"}"#,
    ]
    static let paths = ["/buy", "/buy/", "/buy//", "/buy/1", "/BUY", "/bu", "", "/", "/a%20b", "/en/buy", "/bay/x"]

    @Test("the same decision with and without the quick check", arguments: patterns)
    func agree(pattern: String) throws {
        let text =
            #"{"web": "https://w.example{path}", "rules": ["# + pattern.dropLast()
            + #", "web": "https://rule.example{path}"}]}"#
        let file = try #require(FallbackValidator.validate(Array(text.utf8)).file)
        let plan = FallbackPlan(file: file, apple: nil, android: nil)
        for path in Self.paths {
            for query in [nil, "x=1"] {
                let url = try MatchURL("https://example.com" + path + (query.map { "?" + $0 } ?? ""))
                let expected = plan.decide(url, client: .desktop)
                var pathBytes = Array(path.utf8)
                var queryBytes = Array((query ?? "").utf8)
                let quick = pathBytes.withUnsafeMutableBufferPointer { pathBuffer in
                    queryBytes.withUnsafeMutableBufferPointer { queryBuffer in
                        plan.decide(
                            path: UnsafeBufferPointer(pathBuffer),
                            query: query == nil ? nil : UnsafeBufferPointer(queryBuffer),
                            client: .desktop)
                    }
                }
                #expect(quick.ruleIndex == expected.ruleIndex, "\(pattern) \(path) \(query ?? "")")
            }
        }
    }
}
