import Foundation
import TestSupport
import Testing

/// 100,000 `site.json` aliases (ten folders of 10,000): the status page and `/sites.json` list a
/// few per site and count the rest, so both stay under 512 KiB (docs/serving.md, "Many sites").
@Suite("100,000 site.json aliases")
struct ManyAliasesTests {
    static let folders = 10
    static let perFolder = 10_000

    @Test("the status page and /sites.json stay under 512 KiB and still find an alias by search")
    func pagesStaySmall() throws {
        let folder = try TemporaryFolder()
        for site in 0..<Self.folders {
            try folder.write("sites/tenant\(site).example/apple-app-site-association", SiteFixtures.oneAppAASA("one"))
            let names = (0..<Self.perFolder).map { "\"link\($0).tenant\(site).example\"" }
            try folder.write(
                "sites/tenant\(site).example/site.json", "{\"aliases\": [\(names.joined(separator: ","))]}")
        }
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1"])
        defer { _ = server.stop() }
        let port = try #require(server.adminPort)
        #expect(try ServedApp.served(server, host: "link9999.tenant9.example") == "one")

        let page = try Curl.request("http://127.0.0.1:\(port)/")
        #expect(page.status == 200)
        #expect(page.body.count < 512 * 1024, "status page: \(page.body.count) bytes")
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains("<td>\(Self.folders * Self.perFolder)</td>"), "the summary counts every alias")
        #expect(html.contains("and \(Self.perFolder - 20) more"))

        let json = try Curl.request("http://127.0.0.1:\(port)/sites.json")
        #expect(json.status == 200)
        #expect(json.body.count < 512 * 1024, "/sites.json: \(json.body.count) bytes")
        let document = try #require(try JSONSerialization.jsonObject(with: json.body) as? [String: Any])
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["aliases"] as? Int == Self.folders * Self.perFolder)
        let sites = try #require(document["sites"] as? [[String: Any]])
        #expect(sites.count == Self.folders)
        #expect(
            sites.allSatisfy { $0["aliasCount"] as? Int == Self.perFolder && ($0["aliases"] as? [Any])?.count == 20 })

        // A search by an alias lists that alias first.
        let found = try Curl.request("http://127.0.0.1:\(port)/sites.json?q=link4242.tenant3")
        let foundDocument = try #require(try JSONSerialization.jsonObject(with: found.body) as? [String: Any])
        let foundSites = try #require(foundDocument["sites"] as? [[String: Any]])
        #expect(
            foundSites.count == 1 && (foundSites.first?["aliases"] as? [String])?.first == "link4242.tenant3.example")
    }
}
