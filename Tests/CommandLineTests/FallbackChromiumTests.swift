import Foundation
import TestSupport
import Testing

/// fallback.json's pages in a real browser: what the request carries (path and query) and
/// what the file carries (the preview's texts) stay text. Payloads hide a quote or a `<` in a
/// grapheme cluster (a combining mark after it, U+0600 before it); each sets the title if it runs.
@Suite("fallback pages in Chromium", .serialized)
final class FallbackChromiumTests {
    static let stored =
        "\u{600}<img src=x onerror=\(Chromium.effect)> x\"\u{301} autofocus onfocus=\(Chromium.effect) y'"
    static let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"
    static let slack = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"

    let folder: TemporaryFolder
    let server: RunningServer

    init() throws {
        folder = try TemporaryFolder()
        try folder.write(
            "sites/example.com/apple-app-site-association",
            SiteFixtures.oneAppAASA(path: "*"))
        let title = String(decoding: try JSONEncoder().encode(Self.stored), as: UTF8.self)
        try folder.write(
            "sites/example.com/fallback.json",
            #"{"web": "https://www.example.com{path}{query}", "appStoreID": "1234567890", "preview": {"title": "#
                + title + #", "description": "# + title + "}}")
        // The look of a shop: an icon URL with a quote (URLTemplate lets `"` and `'` through)
        // and every text of `strings` carry the payloads too.
        let texts = String(
            decoding: try JSONEncoder().encode([
                "title": Self.stored, "description": Self.stored,
                "store": Self.stored, "web": Self.stored,
            ]), as: UTF8.self)
        try folder.write("sites/shop.example/apple-app-site-association", SiteFixtures.oneAppAASA(path: "*"))
        try folder.write(
            "sites/shop.example/fallback.json",
            ##"{"web": "https://www.example.com{path}{query}", "appStoreID": "1234567890", "accentColor": "#c2410c", "##
                + #""icon": "https://127.0.0.1/i.png\"onerror=\#(Chromium.effect)//'onerror=\#(Chromium.effect)//", "#
                + #""strings": {"de": "# + texts + "}}")
        server = try RunningServer(in: folder.url, ["--sites", "sites"])
    }

    deinit {
        _ = server.stop()
    }

    /// Raw where Chromium sends them raw (`'`), percent-encoded otherwise.
    static let targets: [String] = [
        "/p/x'%20autofocus%20onfocus='\(Chromium.encoded(Chromium.effect))",
        "/p/1?q=" + Chromium.encoded("x\"\u{301} autofocus onfocus=\(Chromium.effect) y"),
        "/p/1?q=" + Chromium.encoded("\u{600}<img src=x onerror=\(Chromium.effect)>"),
        "/p/'><img src=x onerror=\(Chromium.encoded(Chromium.effect))>",
    ]

    @Test("reflected and stored payloads stay text on the App Store page and the preview", arguments: targets)
    func payloads(target: String) throws {
        for agent in [Self.iPhone, Self.slack] {
            let url = "http://example.com:\(server.port)" + target
            let dom = try Chromium.dom(
                url, ["--user-agent=\(agent)", "--host-resolver-rules=MAP example.com 127.0.0.1"])
            #expect(dom.contains("<h1>\u{600}&lt;img src=x"), "the page loaded: \(dom.prefix(400))")
            Self.expectInert(dom)
        }
    }

    @Test("stored payloads in strings and icon stay text and attribute values", arguments: targets)
    func shopPayloads(target: String) throws {
        let url = "http://shop.example:\(server.port)" + target
        let dom = try Chromium.dom(
            url,
            [
                "--user-agent=\(Self.iPhone)", "--accept-lang=de", "--lang=de",
                "--host-resolver-rules=MAP shop.example 127.0.0.1",
            ])
        #expect(dom.contains("<html lang=\"de\">"), "the German page loaded: \(dom.prefix(400))")
        #expect(dom.contains("<h1>\u{600}&lt;img src=x"), "the page loaded: \(dom.prefix(400))")
        #expect(!dom.contains("<title>pwned"), "the payload ran")
        #expect(dom.components(separatedBy: "<img").count == 2, "an element was injected")
        #expect(!dom.contains("onerror=\""), "an attribute was injected")
        #expect(!dom.contains("autofocus=\"\""), "an attribute was injected")
        #expect(!dom.contains("onfocus=\""), "an attribute was injected")
    }

    /// A page's DOM after the payloads: none ran, none added an element or an attribute.
    static func expectInert(_ dom: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!dom.contains("<title>pwned"), "the payload ran", sourceLocation: sourceLocation)
        // The page's own image (an icon or the preview's card) is the one `<img class=`.
        let images = dom.components(separatedBy: "<img").count - 1
        let ours = dom.components(separatedBy: "<img class=\"").count - 1
        #expect(images == ours && ours <= 1, "an element was injected", sourceLocation: sourceLocation)
        #expect(!dom.contains("onerror=\""), "an attribute was injected", sourceLocation: sourceLocation)
        #expect(!dom.contains("autofocus=\"\""), "an attribute was injected", sourceLocation: sourceLocation)
        #expect(!dom.contains("onfocus=\""), "an attribute was injected", sourceLocation: sourceLocation)
    }
}
