import Foundation
import TestSupport
import Testing

/// The link pages of fallback.json as a shop ships them, served by the real binary: the Play
/// link carries the link through the install, in-app browsers get a way out, and Android
/// follows the Apple file where its own decision is unknown (docs/fallback.md).
@Suite("fallback link pages: referrer, in-app browsers, Android's evidence", .serialized)
final class FallbackLinkPagesTests {
    static let androidWebView =
        "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
        + "Version/4.0 Chrome/126.0.6478.71 Mobile Safari/537.36"
    /// Android in-app browsers as their apps announce them.
    static let androidInApp: [String] = [
        androidWebView,
        androidWebView + " Instagram 334.0.0.42.95 Android (34/14; 420dpi; 1080x2400; Google; Pixel 8)",
        androidWebView + " [FB_IAB/FB4A;FBAV/471.0.0.35.79;]",
        "Mozilla/5.0 (Linux; Android 12) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36 Line/14.6.1",
        "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/124 Mobile Safari/537.36 musical_ly_2023405030",
        "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/124 Mobile Safari/537.36 Snapchat/12.90",
    ]
    static let iOSInstagram =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        + "Mobile/15E148 Instagram 334.0.2.19.94 (iPhone15,3; iOS 17_5; en_US)"
    static let iOS16Instagram =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 16_7 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Instagram 300.0"

    let folder: TemporaryFolder
    let server: RunningServer
    var base: String { "http://127.0.0.1:\(server.port)" }

    init() throws {
        folder = try TemporaryFolder()
        // The same site as FallbackServerTests: Apple keeps /account/* on the web, assetlinks.json
        // has no dynamic rules.
        try folder.write("sites/example.com/apple-app-site-association", FallbackServerTests.apple)
        try folder.write("sites/example.com/assetlinks.json", FallbackServerTests.android)
        try folder.write("sites/example.com/fallback.json", FallbackServerTests.fallback)
        server = try RunningServer(in: folder.url, ["--sites", "sites"])
    }

    deinit {
        _ = server.stop()
    }

    func page(_ path: String, agent: String) throws -> (status: Int, page: String, location: String?) {
        let answer = try Curl.request(base + path, ["-H", "Host: example.com", "-A", agent])
        return (answer.status, String(decoding: answer.body, as: UTF8.self), answer.headers["location"])
    }

    /// The value of the `href` of the link `id`, its `&amp;` back to `&`.
    static func href(_ page: String, id: String) -> String? {
        guard let start = page.range(of: "<a id=\"\(id)\" href=\"") else { return nil }
        let rest = page[start.upperBound...]
        return rest.prefix { $0 != "\"" }.replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("the Google Play link carries the link: referrer=link%3D and the link encoded inside it")
    func referrer() throws {
        let answer = try page("/p/1?x=a&y=b,c", agent: FallbackServerTests.android14)
        #expect(answer.status == 200)
        let store = try #require(Self.href(answer.page, id: "store"), "\(answer.page)")
        #expect(
            store == "https://play.google.com/store/apps/details?id=com.example.app&referrer=link%3D"
                + "https%253A%252F%252Fexample.com%252Fp%252F1%253Fx%253Da%2526y%253Db%252Cc")
        // What the Play Install Referrer API hands the app: the value decoded once, a query
        // whose `link` is the URL as opened.
        let items = try #require(URLComponents(string: store)?.queryItems)
        let referrer = try #require(items.first { $0.name == "referrer" }?.value)
        #expect(referrer == "link=https%3A%2F%2Fexample.com%2Fp%2F1%3Fx%3Da%26y%3Db%2Cc")
        let link = URLComponents(string: "?" + referrer)?.queryItems?.first { $0.name == "link" }?.value
        #expect(link == "https://example.com/p/1?x=a&y=b,c")
        #expect(Self.href(answer.page, id: "app") == nil, "a browser gets no intent link")
    }

    @Test(
        "an Android in-app browser gets an intent:// link with the web as the browser's fallback",
        arguments: androidInApp)
    func intent(agent: String) throws {
        let answer = try page("/p/1?x=2", agent: agent)
        #expect(answer.status == 200)
        #expect(
            Self.href(answer.page, id: "app")
                == "intent://example.com/p/1?x=2#Intent;scheme=https;package=com.example.app;"
                + "S.browser_fallback_url=https%3A%2F%2Fwww.example.com%2Fp%2F1%3Fx%3D2;end", "\(answer.page)")
        #expect(Self.href(answer.page, id: "store")?.contains("&referrer=link%3Dhttps%253A%252F%252F") == true)
        #expect(!answer.page.contains("x-safari"))
    }

    @Test("an iOS 17+ in-app browser gets the way out to Safari; earlier ones and Safari get the page as before")
    func safari() throws {
        let inApp = try page("/p/1?x=2", agent: Self.iOSInstagram)
        #expect(inApp.status == 200)
        #expect(Self.href(inApp.page, id: "app") == "x-safari-https://example.com/p/1?x=2", "\(inApp.page)")
        #expect(inApp.page.contains("app-argument=https://example.com/p/1?x=2"))
        for agent in [Self.iOS16Instagram, FallbackServerTests.iPhone] {
            let answer = try page("/p/1?x=2", agent: agent)
            #expect(answer.status == 200 && Self.href(answer.page, id: "store") != nil)
            #expect(Self.href(answer.page, id: "app") == nil)
        }
    }

    @Test("Android follows the Apple file where its own decision is unknown: /account/1 goes to the web")
    func followsApple() throws {
        for agent in [FallbackServerTests.android14, Self.androidWebView] {
            let account = try page("/account/1", agent: agent)
            #expect(account.status == 302)
            #expect(account.location == "https://www.example.com/account/1")
            #expect(try page("/p/1", agent: agent).status == 200)
        }
        let text = try BinaryRunner.run(["match", "--sites", "sites", "https://example.com/account/1"], in: folder.url)
        let android = text.stdout.split(separator: "\n").first { $0.hasPrefix("    android  ") }
        #expect(
            android?.contains("302 to https://www.example.com/account/1; decided by apple-app-site-association")
                == true, "\(text.stdout)\(text.stderr)")
        let json = try BinaryRunner.run(
            ["match", "--json", "--sites", "sites", "https://example.com/p/1"], in: folder.url)
        #expect(json.stdout.contains(#""evidence":"apple-app-site-association""#), "\(json.stdout)")
        // The status page's URL tester names the evidence too.
        let admin = "http://127.0.0.1:\(try #require(server.adminPort))"
        let tester = String(
            decoding: try Curl.request(admin + "/?url=https%3A%2F%2Fexample.com%2Faccount%2F1").body, as: UTF8.self)
        #expect(tester.contains("redirect; decided by apple-app-site-association"), "\(tester)")
    }

    /// The in-app pages with the request targets that try to break out of a link, raw.
    @Test("the in-app links stay one attribute for every hostile target", arguments: FallbackServerTests.hostile)
    func hostileTargets(target: String, location: String?) throws {
        for agent in [Self.androidWebView, Self.iOSInstagram] {
            let answer = try RawClient.exchange(
                port: server.port,
                "GET \(target) HTTP/1.1\r\nHost: example.com\r\nUser-Agent: \(agent)\r\nConnection: close\r\n\r\n")
            guard location != nil else {
                #expect(answer.hasPrefix("HTTP/1.1 400 "), "\(answer)")
                continue
            }
            // The site's Apple file opens /p/* only: these targets are redirected, never a page.
            #expect(answer.hasPrefix("HTTP/1.1 302 Found\r\n"), "\(answer)")
            let pageTarget = "/p" + (target.hasPrefix("/") ? target : "/x")
            let page = try RawClient.exchange(
                port: server.port,
                "GET \(pageTarget) HTTP/1.1\r\nHost: example.com\r\nUser-Agent: \(agent)\r\nConnection: close\r\n\r\n")
            #expect(page.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(page)")
            let link = try #require(page.components(separatedBy: "<a id=\"app\" href=\"").last)
            let href = link.prefix { $0 != "\"" }
            #expect(!href.contains("<") && !href.contains(">") && !href.contains("'") && !href.contains(" "))
            #expect(!page.lowercased().contains("\r\nset-cookie"))
        }
    }

    /// In Chromium, as the in-app browsers' engines render them: the payloads of
    /// FallbackChromiumTests stay text and the way out is one link.
    @Test(
        "in-app pages stay inert in Chromium for every payload", .enabled(if: Chromium.path != nil),
        arguments: FallbackChromiumTests.targets)
    func payloads(target: String) throws {
        for (agent, scheme) in [(Self.androidWebView, "intent://"), (Self.iOSInstagram, "x-safari-https://")] {
            let url = "http://example.com:\(server.port)" + target
            let dom = try Chromium.dom(
                url, ["--user-agent=\(agent)", "--host-resolver-rules=MAP example.com 127.0.0.1"])
            #expect(dom.contains("<a id=\"app\" href=\"\(scheme)example.com/p/"), "the page loaded: \(dom.prefix(600))")
            FallbackChromiumTests.expectInert(dom)
        }
    }
}
