import Foundation
import TestSupport
import Testing

/// The status page's sites and URL tester, on the real binary: one group per site, every
/// file's size, the notes `validate` gives, and what each client gets without the app.
@Suite("status page: sites, notes and the tester")
final class StatusPageTests {
    /// The example sites (every file kind, an alias), `shop.test`, whose two files disagree
    /// (XPL001 on its assetlinks.json), and `keys.test`, whose passkeys only Apple's apps may use.
    let folder: TemporaryFolder
    let server: RunningServer

    init() throws {
        folder = try TemporaryFolder()
        try FileManager.default.copyItem(
            at: BinaryRunner.packageRoot.appendingPathComponent("Config/sites"),
            to: URL(fileURLWithPath: folder.path("sites")))
        try folder.write("sites/shop.test/apple-app-site-association", BothPlatformsTests.apple)
        try folder.write("sites/shop.test/assetlinks.json", BothPlatformsTests.android(#"{"/": "/other"}"#))
        // Passkeys for Apple's apps only: a note on the Apple file (WAN0xx).
        try folder.write(
            "sites/keys.test/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        try folder.write("sites/keys.test/passkey-endpoints", #"{"enroll": "https://keys.test/passkeys/new"}"#)
        server = try RunningServer(in: folder.url, ["--sites", "sites"])
    }

    deinit {
        _ = server.stop()
    }

    func page(_ query: String = "") throws -> String {
        let port = try #require(server.adminPort)
        return String(decoding: try Curl.request("http://127.0.0.1:\(port)/\(query)").body, as: UTF8.self)
    }

    /// The part of the page of one site's group.
    func group(_ site: String, in page: String) throws -> String {
        let start = try #require(page.range(of: "<section class=\"site\"><h3 class=\"site-name\">\(site)</h3>"))
        let end = try #require(page.range(of: "</section>", range: start.upperBound..<page.endIndex))
        return String(page[start.lowerBound..<end.upperBound])
    }

    @Test("one group per site: its name, aliases and both caches' states once, a row per file")
    func grouping() throws {
        let page = try page()
        let sites = try #require(page.components(separatedBy: "<div id=\"sites\">").last)
        for site in ["example.com", "*.staging.example.com", "legacy.example.com", "shop.test", "keys.test"] {
            #expect(sites.components(separatedBy: ">\(site)<").count == 2, "\(site) is named once")
        }
        let example = try group("example.com", in: page)
        #expect(example.contains("<dd class=\"aliases\">www.example.com</dd>"))
        #expect(example.components(separatedBy: "<dd class=\"cdn\">").count == 2)
        #expect(example.components(separatedBy: "<dd class=\"google\">").count == 2)
        #expect(example.components(separatedBy: "<tr class=\"file\">").count == 7, "six files: \(example)")
        #expect(try group("shop.test", in: page).contains("<dd class=\"aliases\"><span class=\"none\">none</span>"))
        // Every group's cache states are `unchecked` (no watch on): neutral, not the colour of success.
        #expect(sites.components(separatedBy: "<span class=\"none\">unchecked</span>").count == 11)
        #expect(!page.contains("<span class=\"ok\">unchecked"))
        #expect(page.contains(".none { color: #656d76; }"))
    }

    @Test("every file's size as it is on disk, fallback.json and the passkey files included")
    func sizes() throws {
        let example = try group("example.com", in: try page())
        let root = URL(fileURLWithPath: folder.path("sites/example.com"))
        for file in [
            "apple-app-site-association", "assetlinks.json", "webauthn", "passkey-endpoints", "expectations.json",
            "fallback.json",
        ] {
            let bytes = try Data(contentsOf: root.appendingPathComponent(file)).count
            #expect(bytes > 0)
            #expect(
                example.contains("<tr class=\"file\"><td>\(file)</td><td class=\"bytes\">\(bytes)</td>"),
                "\(file): \(bytes) bytes in \(example)")
        }
    }

    /// `(file, severity, code)` of each diagnostic line in `text`, in order.
    static func findings(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            var unescaped = String(line)
            for (entity, text) in [("&#39;", "'"), ("&quot;", "\""), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
                unescaped = unescaped.replacingOccurrences(of: entity, with: text)
            }
            let pattern = #/^(?:.*/)?([^/:]+):\d+:\d+: (error|warning|info): .* \[([A-Z]+[0-9]+)\]$/#
            guard let match = unescaped.firstMatch(of: pattern) else { return nil }
            return "\(match.1) \(match.2) \(match.3)"
        }
    }

    @Test("each file's notes are validate's: the same codes and severities, notes behind a toggle")
    func notesAsValidate() throws {
        let page = try page()
        for site in ["example.com", "shop.test", "legacy.example.com", "keys.test"] {
            let validate = try BinaryRunner.run(["validate", "--verbose", "sites/\(site)"], in: folder.url)
            let group = try group(site, in: page)
            // The page's lines: warnings and errors shown, then the notes inside <details>.
            let shown = group.components(separatedBy: "<pre class=\"problems\">").dropFirst()
                .map { $0.components(separatedBy: "</pre>")[0] }
            let hidden = group.components(separatedBy: "<details class=\"info\">").dropFirst()
                .map { $0.components(separatedBy: "</details>")[0] }
                .map { $0.components(separatedBy: "</summary><pre>").last ?? "" }
            let onPage = (shown + hidden).flatMap(Self.findings).sorted()
            #expect(onPage == Self.findings(validate.stdout).sorted(), "\(site): \(validate.stdout)\n\(group)")
            for notes in hidden { #expect(!Self.findings(notes).contains { !$0.contains(" info ") }) }
            let plain = try BinaryRunner.run(["validate", "sites/\(site)"], in: folder.url)
            #expect(shown.flatMap(Self.findings).sorted() == Self.findings(plain.stdout).sorted(), "\(site)")
        }
        // The comparison of shop.test's two files, and the passkey pieces of example.com, are there.
        #expect(try group("shop.test", in: page).contains("[XPL001]"))
        #expect(try group("keys.test", in: page).contains("[WAN"))
    }

    @Test("the notes' toggle is a closed <details> in a browser, the page runs no script")
    func toggleInChromium() throws {
        let port = try #require(server.adminPort)
        let dom = try Chromium.dom("http://127.0.0.1:\(port)/?q=example.com")
        #expect(dom.contains("<title>aasa-server status</title>"), "\(dom.prefix(300))")
        #expect(dom.contains("<details class=\"info\"><summary>"), "\(dom)")
        #expect(!dom.contains("<details class=\"info\" open"))
    }

    static let clients = [
        ("iPhone or iPad", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"),
        (
            "Android phone",
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36"
        ),
        (
            "Desktop browser",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15"
        ),
    ]

    @Test("the tester says what each client gets without the app, as the server answers it")
    func testerFallback() throws {
        let url = "https://example.com/order/12?table=7"
        let page = try page("?url=" + Chromium.encoded(url))
        #expect(page.contains("<tr class=\"decision\"><td>iOS</td>") && page.contains("<td>Android</td>"))
        for (client, agent) in Self.clients {
            let row = try #require(
                page.components(separatedBy: "<tr class=\"fallback\"><td>\(client)</td><td>").dropFirst().first,
                "\(client) in \(page)")
            let status = row.prefix { $0.isNumber }
            let answer = try Curl.request(
                "http://127.0.0.1:\(server.port)/order/12?table=7", ["-H", "Host: example.com", "-A", agent])
            #expect(String(answer.status) == status, "\(client): the page says \(status), the server \(answer.status)")
        }
        let none = try self.page("?url=" + Chromium.encoded("https://shop.test/order/1"))
        #expect(none.contains("id=\"fallback-none\""))
    }

    @Test("a view compares at most 20 sites' two files; the next view the rest")
    func comparisonsPerView() throws {
        let many = try TemporaryFolder()
        for index in 0..<25 {
            try many.write("sites/shop\(index).test/apple-app-site-association", BothPlatformsTests.apple)
            try many.write("sites/shop\(index).test/assetlinks.json", BothPlatformsTests.android(#"{"/": "/other"}"#))
        }
        let server = try RunningServer(in: many.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        let port = try #require(server.adminPort)
        let views = try (0..<2).map { _ in
            String(decoding: try Curl.request("http://127.0.0.1:\(port)/").body, as: UTF8.self)
        }
        #expect(views[0].components(separatedBy: "[XPL001]").count - 1 == 20)
        #expect(views[0].components(separatedBy: "class=\"none deferred\"").count - 1 == 5)
        #expect(views[1].components(separatedBy: "[XPL001]").count - 1 == 25)
        #expect(!views[1].contains("deferred"))
    }
}
