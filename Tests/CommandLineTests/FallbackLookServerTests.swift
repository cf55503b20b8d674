import Foundation
import TestSupport
import Testing

/// fallback.json's `icon`, `accentColor` and `strings` served by the real binary: the page in the
/// language Accept-Language asks for, with `Vary`, and the heading without `preview`
/// (docs/fallback.md, "Link pages a shop would ship").
@Suite("fallback pages that look like the shop", .serialized)
final class FallbackLookServerTests {
    static let apple =
        SiteFixtures.oneAppAASA(path: "/p/*")
    static let android = FallbackServerTests.android
    static let fallback = """
        {"web": "https://www.shop.example{path}{query}", "appStoreID": "1234567890", "playPackage": "com.example.app",
         "icon": "https://www.shop.example/icon.png", "accentColor": "#FFD60A",
         "strings": {"de": {"description": "Bestellen & bezahlen", "store": "App laden", "web": "Weiter im Web"},
                     "pt": {"title": "Loja <Exemplo>", "web": "Continuar na web"}}}
        """
    static let iPhone = FallbackServerTests.iPhone
    static let android14 = FallbackServerTests.android14

    let folder: TemporaryFolder
    let server: RunningServer

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("sites/shop.example/apple-app-site-association", Self.apple)
        try folder.write("sites/shop.example/assetlinks.json", Self.android)
        try folder.write("sites/shop.example/fallback.json", Self.fallback)
        try folder.write("sites/plain.example/apple-app-site-association", Self.apple)
        try folder.write(
            "sites/plain.example/fallback.json", #"{"web": "https://plain.example{path}", "appStoreID": "1234567890"}"#)
        server = try RunningServer(in: folder.url, ["--sites", "sites"])
    }

    deinit {
        _ = server.stop()
    }

    func page(_ path: String, agent: String, language: String?, host: String = "shop.example") throws -> (
        response: Curl.Response, html: String
    ) {
        let response = try Curl.request(
            "http://127.0.0.1:\(server.port)" + path,
            ["-H", "Host: \(host)", "-A", agent] + (language.map { ["-H", "Accept-Language: \($0)"] } ?? []))
        return (response, String(decoding: response.body, as: UTF8.self))
    }

    @Test("strings chosen by Accept-Language, with Vary: User-Agent, Accept-Language")
    func languages() throws {
        let german = try page("/p/1", agent: Self.iPhone, language: "de-DE,de;q=0.9,en;q=0.8")
        #expect(german.response.status == 200)
        #expect(german.response.headers["vary"] == "User-Agent, Accept-Language")
        #expect(german.html.contains(#"<html lang="de">"#))
        #expect(german.html.contains("<p>Bestellen &amp; bezahlen</p>"), "\(german.html)")
        #expect(german.html.contains(#"href="https://apps.apple.com/app/id1234567890">App laden</a>"#))
        #expect(german.html.contains(#"href="https://www.shop.example/p/1">Weiter im Web</a>"#))
        // pt-BR falls back to pt; its title replaces the heading.
        let portuguese = try page("/p/1", agent: Self.android14, language: "pt-BR")
        #expect(portuguese.html.contains(#"<html lang="pt">"#))
        #expect(portuguese.html.contains("<h1>Loja &lt;Exemplo&gt;</h1>"))
        #expect(portuguese.html.contains(">Get it on Google Play</a>"), "the default where pt sets none")
        #expect(portuguese.html.contains(">Continuar na web</a>"))
        #expect(portuguese.response.headers["vary"] == "User-Agent, Accept-Language")
        for language in [nil, "en-US,en;q=0.9,de;q=0.5", "ja", "de;q=0"] {
            let english = try page("/p/1", agent: Self.iPhone, language: language)
            #expect(english.html.contains(#"<html lang="en">"#), "\(language ?? "none")")
            #expect(english.html.contains(">Download on the App Store</a>"))
            #expect(english.html.contains(">Continue on the web</a>"))
        }
    }

    @Test("the icon, the colour, and without preview the site's name as heading")
    func look() throws {
        let shop = try page("/p/1", agent: Self.iPhone, language: nil)
        #expect(shop.html.contains(#"<img class="icon" alt="" src="https://www.shop.example/icon.png">"#))
        #expect(shop.html.components(separatedBy: "<img").count == 2, "one image at most")
        #expect(shop.html.contains("--accent:#ffd60a;--on-accent:#111;"), "dark text on yellow")
        #expect(shop.html.contains("<h1>shop.example</h1>") && shop.html.contains("<title>shop.example</title>"))
        #expect(!shop.html.contains("Open in the app"))
        #expect(!shop.html.lowercased().contains("<script") && !shop.html.contains("@import"))
        #expect(!shop.html.contains("url("), "nothing but the one image is fetched")
        let csp = try #require(shop.response.headers["content-security-policy"])
        #expect(csp == "default-src 'none'; img-src https:; style-src 'unsafe-inline'; frame-ancestors 'none'")
        #expect(shop.response.body.count < 4096, "\(shop.response.body.count) bytes")
        // No strings: Vary as before; no icon: the name's initial on the default colour.
        let plain = try page("/p/1", agent: Self.iPhone, language: "de", host: "plain.example")
        #expect(plain.response.headers["vary"] == "User-Agent")
        #expect(plain.html.contains("<h1>plain.example</h1>"))
        #expect(plain.html.contains(#"<div class="icon mark" aria-hidden="true">P</div>"#))
        #expect(!plain.html.contains("<img"))
        #expect(plain.html.contains("--accent:#0a66d8;--on-accent:#fff;"))
    }

    @Test("in Chromium: the German strings, the one image, no script")
    func rendered() throws {
        let dom = try Chromium.dom(
            "http://shop.example:\(server.port)/p/1",
            [
                "--user-agent=\(Self.iPhone)", "--accept-lang=de", "--lang=de",
                "--host-resolver-rules=MAP shop.example 127.0.0.1",
            ])
        #expect(dom.contains(#"<html lang="de">"#), "\(dom.prefix(600))")
        #expect(dom.contains("<h1>shop.example</h1>"))
        #expect(dom.contains("<p>Bestellen &amp; bezahlen</p>"))
        #expect(dom.contains(">App laden</a>") && dom.contains(">Weiter im Web</a>"))
        #expect(dom.contains(#"<img class="icon" alt="" src="https://www.shop.example/icon.png">"#))
        #expect(dom.components(separatedBy: "<img").count == 2)
        #expect(!dom.lowercased().contains("<script") && !dom.contains("<link") && !dom.contains("<iframe"))
    }
}
