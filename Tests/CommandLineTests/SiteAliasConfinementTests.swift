import Foundation
import TestSupport
import Testing

/// A tenant who deploys one site folder writes its `site.json`: the names it claims there never
/// take another site's host, over HTTP or in `validate`, whatever the folders are named
/// (docs/security.md, "Aliases a tenant can claim").
@Suite("site.json aliases confined, over HTTP")
struct SiteAliasConfinementTests {
    static let claims = [
        "pr-1.staging.victim.example", "*.victim.example", "*.com", "127.0.0.1", "localhost", "victim-links.example",
        "victim.example",
    ]

    @Test("a tenant's site.json takes no other site's host", arguments: ["aa-tenant.example", "zz-tenant.example"])
    func confined(tenant: String) throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/victim.example/apple-app-site-association", SiteFixtures.oneAppAASA("one"))
        try folder.write("sites/victim.example/site.json", #"{"aliases": ["victim-links.example"]}"#)
        try folder.write("sites/*.victim.example/apple-app-site-association", SiteFixtures.oneAppAASA("two"))
        try folder.write("sites/\(tenant)/apple-app-site-association", SiteFixtures.oneAppAASA("three"))
        let settings = try folder.write("sites/\(tenant)/site.json", #"{"aliases": ["go.tenant.example"]}"#)
        let server = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        #expect(try ServedApp.served(server, host: "go.tenant.example") == "three")

        // The tenant deploys a site.json that claims the victim's names: a reload, no signal.
        let list = (Self.claims + ["go.tenant.example"]).map { "\"\($0)\"" }.joined(separator: ", ")
        try Data(#"{"aliases": [\#(list)]}"#.utf8).write(to: URL(fileURLWithPath: settings))
        let port = try #require(server.adminPort)
        func document() throws -> String {
            String(decoding: try Curl.request("http://127.0.0.1:\(port)/sites.json").body, as: UTF8.self)
        }
        #expect(try eventually(10) { try document().contains("SITE017") })
        for code in ["SITE014", "SITE016", "SITE017"] { #expect(try document().contains(code), "\(code)") }

        let validate = try BinaryRunner.run(["validate", "sites"], in: folder.url)
        #expect(validate.status == 1, "\(validate.stdout)")
        for code in ["SITE014", "SITE016", "SITE017"] {
            #expect(validate.stdout.contains("[\(code)]"), "\(code): \(validate.stdout)")
        }
        #expect(
            validate.stdout.contains(
                "the alias pr-1.staging.victim.example is not served from here: the site folder *.victim.example "
                    + "covers it"), "\(validate.stdout)")

        #expect(try ServedApp.served(server, host: "victim.example") == "one")
        #expect(try ServedApp.served(server, host: "pr-1.staging.victim.example") == "two")
        #expect(try ServedApp.served(server, host: "x.victim.example") == "two")
        #expect(try ServedApp.served(server, host: "go.tenant.example") == "three")
        // The victim's own alias, served before the claim, stays the victim's (SITE017 on the tenant).
        #expect(try ServedApp.served(server, host: "victim-links.example") == "one")
        for host in ["localhost", "127.0.0.1", "shop.com"] {
            #expect(try ServedApp.served(server, host: host) == "404", "\(host)")
        }
    }

    /// `aasa_reloads_total` of `/metrics`, every result.
    static func reloads(_ port: Int) throws -> Int {
        let metrics = String(decoding: try Curl.request("http://127.0.0.1:\(port)/metrics").body, as: UTF8.self)
        return metrics.split(separator: "\n").filter { $0.hasPrefix("aasa_reloads_total{") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0) { $0 + Int($1) }
    }

    @Test(
        "a tenant adding another's served alias to its site.json is refused; the alias keeps answering",
        arguments: ["aa-tenant.example", "zz-tenant.example"])
    func incumbentKeeps(tenant: String) throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/victim.example/apple-app-site-association", SiteFixtures.oneAppAASA("one"))
        try folder.write("sites/victim.example/site.json", #"{"aliases": ["go.victim.example"]}"#)
        try folder.write("sites/\(tenant)/apple-app-site-association", SiteFixtures.oneAppAASA("three"))
        let settings = try folder.write("sites/\(tenant)/site.json", #"{"aliases": ["go.tenant.example"]}"#)
        let server = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        #expect(try ServedApp.served(server, host: "go.victim.example") == "one")
        let port = try #require(server.adminPort)
        func document() throws -> String {
            String(decoding: try Curl.request("http://127.0.0.1:\(port)/sites.json").body, as: UTF8.self)
        }

        // The tenant deploys a site.json naming the victim's alias: the file watcher reloads it.
        let claim = #"{"aliases": ["go.tenant.example", "go.victim.example"]}"#
        try Data(claim.utf8).write(to: URL(fileURLWithPath: settings))
        #expect(try eventually(10) { try document().contains("SITE017") })
        let listed = try document()
        #expect(listed.contains("victim.example's site.json names it too"), "\(listed)")
        #expect(try ServedApp.served(server, host: "go.victim.example") == "one")
        #expect(try ServedApp.served(server, host: "go.tenant.example") == "three")

        // A full rescan (SIGHUP) keeps it with the site that serves it.
        let before = try Self.reloads(port)
        server.signal(SIGHUP)
        #expect(try eventually(10) { try Self.reloads(port) > before })
        #expect(try ServedApp.served(server, host: "go.victim.example") == "one")
        #expect(try document().contains("SITE017"))

        // With nothing served (validate, a cold start) neither folder gets it, whatever their names.
        let validate = try BinaryRunner.run(["validate", "sites"], in: folder.url)
        #expect(validate.stdout.components(separatedBy: "[SITE017]").count == 3, "\(validate.stdout)")
        let cold = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = cold.stop() }
        #expect(try ServedApp.served(cold, host: "go.victim.example") == "404")
        #expect(try ServedApp.served(cold, host: "victim.example") == "one")
    }
}
