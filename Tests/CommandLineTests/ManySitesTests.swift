import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// 10,000 site folders on the real binary: behaviour, not speed (`make bench-scale` measures).
/// A change is read alone (the log says one folder was read), aliases follow their folder,
/// new and removed folders are seen, and the status page and `/sites.json` page and search.
@Suite("10,000 sites", .serialized)
final class ManySitesTests {
    static let count = 10_000
    let folder: TemporaryFolder
    let server: RunningServer
    let adminPort: Int
    var sites: URL { folder.url.appendingPathComponent("sites") }

    static func file(_ index: Int, path: String = "buy") -> String {
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app\#(index)"], "#
            + #""components": [{"/": "/\#(path)/*"}]}]}}"#
    }

    init() throws {
        folder = try TemporaryFolder()
        for index in 0..<Self.count {
            try folder.write("sites/site\(index).example.com/apple-app-site-association", Self.file(index))
        }
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("sites/alias.example.org").path,
            withDestinationPath: "site7.example.com")
        server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1"])
        adminPort = try #require(server.adminPort)
    }

    deinit {
        _ = server.stop()
    }

    func fetch(_ host: String) throws -> Curl.Response {
        try Curl.request("http://127.0.0.1:\(server.port)/apple-app-site-association", ["-H", "Host: \(host)"])
    }

    func admin(_ path: String) throws -> Curl.Response {
        try Curl.request("http://127.0.0.1:\(adminPort)\(path)")
    }

    /// Writes the file as deploy tools do: a temporary file renamed over the old one.
    func replace(_ site: String, with text: String) throws {
        let target = sites.appendingPathComponent("\(site)/apple-app-site-association")
        let temporary = sites.appendingPathComponent("\(site)/.next")
        try Data(text.utf8).write(to: temporary)
        #expect(rename(temporary.path, target.path) == 0)
    }

    @Test("one changed file among 10,000 is read alone and served; its alias follows; new and removed folders too")
    func incrementalReload() throws {
        #expect(try fetch("site9999.example.com").status == 200)
        #expect(try fetch("alias.example.org").body == Data(Self.file(7).utf8))

        try replace("site5000.example.com", with: Self.file(5000, path: "sell"))
        #expect(
            try eventually(10) { try fetch("site5000.example.com").body == Data(Self.file(5000, path: "sell").utf8) })
        // The event carries the counts of docs/serving.md, "Counting sites": 10,000 folders, 1 alias.
        #expect(
            eventually(5) {
                server.errors.contains("reloaded; changed: site5000.example.com aliases=1 folders_read=1")
            })

        try replace("site7.example.com", with: Self.file(7, path: "sell"))
        #expect(try eventually(10) { try fetch("alias.example.org").body == Data(Self.file(7, path: "sell").utf8) })
        #expect(
            eventually(5) {
                server.errors.contains(
                    "reloaded; changed: alias.example.org, site7.example.com aliases=1 folders_read=1")
            })

        try folder.write("sites/.incoming/apple-app-site-association", Self.file(10_000))
        #expect(
            rename(sites.appendingPathComponent(".incoming").path, sites.appendingPathComponent("new.example").path)
                == 0)
        #expect(try eventually(10) { try fetch("new.example").status == 200 })
        try FileManager.default.removeItem(at: sites.appendingPathComponent("site1.example.com"))
        #expect(try eventually(10) { try fetch("site1.example.com").status == 404 })
        #expect(try fetch("site2.example.com").status == 200)
    }

    @Test("the status page and /sites.json page and search 10,000 sites, and stay small")
    func statusPageSearch() throws {
        let first = try admin("/")
        #expect(first.status == 200 && first.body.count < 512 * 1024)
        let page = String(decoding: first.body, as: UTF8.self)
        #expect(page.contains("<td>\(Self.count)</td>"), "the summary counts every site")
        #expect(page.contains("1–100 of \(Self.count) sites; page 1 of 100."))

        let found = String(decoding: try admin("/?q=SITE4242").body, as: UTF8.self)
        #expect(found.contains("<h3 class=\"site-name\">site4242.example.com</h3>"))
        #expect(!found.contains("site4243.example.com"))
        #expect(found.contains("1–1 of 1 sites matching “site4242”"))
        let byAlias = String(decoding: try admin("/?q=alias.example").body, as: UTF8.self)
        #expect(
            byAlias.contains(
                "site-name\">site7.example.com</h3>\n<dl class=\"facts\"><div><dt>Aliases</dt><dd class=\"aliases\">"
                    + "alias.example.org</dd>"))

        // site42, site420–site429 and site4200–site4299: 111 sites, two pages of 100.
        let json = try admin("/sites.json?q=site42&page=2")
        #expect(json.status == 200)
        let document = try #require(try JSONSerialization.jsonObject(with: json.body) as? [String: Any])
        #expect(document["total"] as? Int == 111)
        #expect(document["pages"] as? Int == 2 && document["page"] as? Int == 2)
        let listed = try #require(document["sites"] as? [[String: Any]])
        #expect(listed.count == 11)
        #expect(listed.allSatisfy { $0["state"] as? String == "valid" })
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["sites"] as? Int == Self.count && summary["aliases"] as? Int == 1)

        // An invalid edit keeps the last good copy, and says so first.
        try replace("site3.example.com", with: SiteFixtures.truncatedAASA)
        #expect(
            try eventually(10) {
                String(decoding: try admin("/").body, as: UTF8.self).contains("<table id=\"invalid\">")
            })
        let withInvalid = String(decoding: try admin("/").body, as: UTF8.self)
        #expect(withInvalid.contains("<a href=\"/?q=site3.example.com\">site3.example.com</a>"))
        #expect(try fetch("site3.example.com").body == Data(Self.file(3).utf8))
        let state = String(decoding: try admin("/sites.json?q=site3.example.com").body, as: UTF8.self)
        #expect(state.contains(#""state":"kept-last-good""#))
        #expect(state.contains(#""code":"JSON"#))
    }
}
