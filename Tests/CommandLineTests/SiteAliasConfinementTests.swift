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
        for host in ["victim-links.example", "localhost", "127.0.0.1", "shop.com"] {
            #expect(try ServedApp.served(server, host: host) == "404", "\(host)")
        }
    }
}
