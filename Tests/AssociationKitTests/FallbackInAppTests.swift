import AssociationKit
import Testing

/// In-app browsers by User-Agent, and Android following the Apple file where its own decision
/// is unknown (docs/fallback.md, "In-app browsers" and "Android follows the evidence").
@Suite("fallback.json: in-app browsers and Android's evidence")
struct FallbackInAppTests {
    static let agents: [(String, FallbackClient)] = [
        // Android System WebView, as the apps that embed it send it.
        (
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Version/4.0 Chrome/126.0.6478.71 Mobile Safari/537.36", .androidInApp
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A; wv) AppleWebKit/537.36 Version/4.0 "
                + "Chrome/125.0 Mobile Safari/537.36 Instagram 334.0.0.42.95 Android (33/13; 480dpi)", .androidInApp
        ),
        (
            "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36 "
                + "[FB_IAB/FB4A;FBAV/471.0.0.35.79;]", .androidInApp
        ),
        (
            "Mozilla/5.0 (Linux; Android 12) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36 Line/14.6.1",
            .androidInApp
        ),
        (
            "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/124 Mobile Safari/537.36 "
                + "musical_ly_2023405030 BytedanceWebview/d8a21c6", .androidInApp
        ),
        (
            "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/124 Mobile Safari/537.36 Snapchat/12.90",
            .androidInApp
        ),
        ("Mozilla/5.0 (Linux; Android 14) Chrome/124 Mobile Safari/537.36 trill_340 TikTok", .androidInApp),
        // Chrome itself is no in-app browser; neither is a desktop WebView-like token.
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36", .android),
        ("Mozilla/5.0 (Linux; Android 14; WV-100) Chrome/126.0 Mobile Safari/537.36", .android),
        ("Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/126 Safari/537.36 Instagram", .desktop),
        // iOS: only 17 and later open x-safari-https:// links; earlier ones get the page of Safari.
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Mobile/15E148 Instagram 334.0.2.19.94 (iPhone15,3; iOS 17_5; en_US)", .iOSInApp
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 "
                + "[FBAN/FBIOS;FBAV/480.0.0.31.106;FBBV/651574366;FBDV/iPhone16,2;FBMD/iPhone;FBSN/iOS]", .iOSInApp
        ),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 26_0 like Mac OS X) Mobile/15E148 musical_ly_35.1.0", .iOSInApp),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 16_7 like Mac OS X) Mobile/15E148 Instagram 300.0", .iOS),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 9_3 like Mac OS X) Mobile/13E233 [FBAN/FBIOS;FBAV/60.0]", .iOS),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Safari/604.1", .iOS),
        ("Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) Mobile/15E148 Snapchat/12.80", .iOSInApp),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS like Mac OS X) Instagram", .iOS),
        // Crawlers stay crawlers, whatever else they name.
        ("LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com) LinkedInApp", .crawler),
        ("Mozilla/5.0 (Linux; Android 14; wv) facebookexternalhit/1.1", .crawler),
        ("wv)", .desktop), ("OS 17_", .desktop),
    ]

    @Test("in-app browsers by User-Agent", arguments: agents)
    func clients(agent: String, expected: FallbackClient) {
        #expect(FallbackClient(userAgent: agent) == expected)
    }

    /// Every token of the table is found, in either case, on the platform it names.
    @Test("every token of the table classifies", arguments: FallbackClient.groups.flatMap(\.tokens).map { "\($0.0)" })
    func tokens(token: String) {
        let kind = FallbackClient.groups.flatMap(\.tokens).first { "\($0.0)" == token }!.1
        let expected: FallbackClient =
            switch kind {
            case .crawler: .crawler
            case .iOS: .iOS
            case .android: .android
            case .inApp: .androidInApp
            }
        let carrier = kind == .inApp || kind == .crawler ? "Mozilla/5.0 (Linux; Android 14) " : "Mozilla/5.0 ("
        #expect(FallbackClient(userAgent: carrier + token + " x") == expected)
        #expect(FallbackClient(userAgent: carrier + token.uppercased() + " x") == expected)
        #expect(FallbackClient.groups.count <= 32, "one bit a group in a UInt32")
    }

    static let apple = """
        {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"],
          "components": [{"/": "/account/*", "exclude": true}, {"/": "/*"}]}]}}
        """
    /// No dynamic rules: Android's own decision is unknown for every path.
    static let android = """
        [{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app",
          "package_name": "com.example.app", "sha256_cert_fingerprints":
          ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]
        """

    static func plan(
        apple: String?, fallback: String = #"{"web": "https://w.example{path}", "playPackage": "com.example.app"}"#
    )
        throws -> FallbackPlan
    {
        let file = try #require(FallbackValidator.validate(Array(fallback.utf8)).file)
        return FallbackPlan(
            file: file, apple: apple.flatMap { AssociationFileValidator.validate(Array($0.utf8)).file },
            android: AssetLinksValidator.validate(Array(android.utf8)).file)
    }

    static let evidence: [(url: String, apple: Bool, kind: FallbackDecision.Kind, evidence: FallbackEvidence)] = [
        ("https://example.com/account/1", true, .redirect, .apple),
        ("https://example.com/p/1", true, .page, .apple),
        ("https://example.com/account/1", false, .page, .manifest),
        ("https://example.com/p/1", false, .page, .manifest),
    ]

    @Test("Android follows the Apple file where its own decision is unknown", arguments: evidence)
    func follows(url: String, apple: Bool, kind: FallbackDecision.Kind, evidence: FallbackEvidence) throws {
        let plan = try Self.plan(apple: apple ? Self.apple : nil)
        for client in [FallbackClient.android, .androidInApp] {
            let answer = try #require(try plan.explain(url).first { $0.client == client })
            #expect(answer.kind == kind)
            #expect(answer.evidence == evidence)
            #expect(answer.summary.contains("decided by \(evidence.rawValue)"))
        }
        // Not for iOS: without appStoreID there is no App Store page, whatever the Apple file says.
        let iOS = try #require(try plan.explain(url).first { $0.client == .iOS })
        #expect(iOS.kind == .redirect && iOS.evidence == nil)
    }

    @Test("Android's own decision wins where it is known: dynamic rules")
    func dynamicRules() throws {
        let dynamic = Self.android.replacingOccurrences(
            of: "}}]",
            with: #"}, "relation_extensions": {"delegate_permission/common.handle_all_urls": "#
                + #"{"dynamic_app_link_components": [{"/": "/account/*"}]}}}]"#)
        let file = try #require(
            FallbackValidator.validate(
                Array(#"{"web": "https://w.example{path}", "playPackage": "com.example.app"}"#.utf8)
            )
            .file)
        let plan = FallbackPlan(
            file: file, apple: AssociationFileValidator.validate(Array(Self.apple.utf8)).file,
            android: AssetLinksValidator.validate(Array(dynamic.utf8)).file)
        let account = try #require(try plan.explain("https://example.com/account/1").first { $0.client == .android })
        #expect(account.kind == .page && account.evidence == .android)
        let other = try #require(try plan.explain("https://example.com/p/1").first { $0.client == .android })
        #expect(other.kind == .redirect && other.evidence == .android)
    }
}
