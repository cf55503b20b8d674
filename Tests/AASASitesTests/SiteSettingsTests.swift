import AssociationKit
import Foundation
import TestSupport
import Testing

@testable import AASASites

/// A site folder's `site.json` (docs/sites.md, "Sites layout"): aliases without symbolic links,
/// each mistake a stable code at its line and column.
@Suite("site.json: aliases without links")
struct SiteSettingsTests {
    @Test(
        "each mistake has its code, severity, line and column; the names that are hosts are kept",
        arguments: [
            (#"{"aliases": ["go.example.com", "WWW.Example.com."]}"#, ["go.example.com", "www.example.com"], []),
            (#"{"aliases": []}"#, [], []),
            (#"{}"#, [], []),
            (#"{"aliases": ["a.example", "a.example"]}"#, ["a.example"], []),
            (#"{"aliases": ["*.example.org"]}"#, [], ["SITE016 error 1:14"]),
            (#"{"aliases": ["*.com", "ok.example"]}"#, ["ok.example"], ["SITE016 error 1:14"]),
            (#"{"aliases": ["127.0.0.1"]}"#, [], ["SITE016 error 1:14"]),
            (#"{"aliases": ["10.0.0.1."]}"#, [], ["SITE016 error 1:14"]),
            (#"{"aliases": ["localhost"]}"#, [], ["SITE016 error 1:14"]),
            (#"{"aliases": ["app.LOCALHOST"]}"#, [], ["SITE016 error 1:14"]),
            (#"{"aliases": ["com"]}"#, [], ["SITE016 error 1:14"]),
            (#"{"aliases": ["1password.example", "a.b2"]}"#, ["1password.example", "a.b2"], []),
            (#"{"aliases": ["go.example.com"], "alias": 1}"#, ["go.example.com"], ["SITE015 warning 1:33"]),
            (#"{"aliases": ["https://go.example.com/", "ok.example"]}"#, ["ok.example"], ["SITE013 error 1:14"]),
            (#"{"aliases": ["go.example.com:443"]}"#, [], ["SITE013 error 1:14"]),
            (#"{"aliases": "go.example.com"}"#, [], ["SITE012 error 1:13"]),
            (#"{"aliases": [7]}"#, [], ["SITE012 error 1:14"]),
            (#"["go.example.com"]"#, [], ["SITE012 error 1:1"]),
            ("{\n  \"aliases\": [\"a.example\",]\n}", [], ["SITE012 error 2:26"]),
            ("", [], ["SITE012 error 1:1"]),
        ] as [(String, [String], [String])])
    func parse(_ text: String, _ aliases: [String], _ problems: [String]) {
        let settings = SiteSettings(Array(text.utf8), path: "sites/example.com/site.json", site: "example.com")
        #expect(settings.aliases == aliases)
        let found = settings.problems.map {
            "\($0.code) \($0.severity.rawValue) \($0.lineNumber ?? 0):\($0.column ?? 0)"
        }
        #expect(found == problems, "\(settings.problems.map(\.rendered))")
        #expect(settings.problems.allSatisfy { $0.path == "sites/example.com/site.json" && $0.site == "example.com" })
    }

    @Test("a site.json alias is served as its folder; a name a folder or a link holds is SITE014, two claims SITE017")
    func directory() throws {
        let fixture = try TemporaryFolder("aasa-sites")
        try fixture.write("sites/example.com/apple-app-site-association", "{}")
        try fixture.write(
            "sites/example.com/site.json",
            #"{"aliases": ["go.example.com", "other.example", "www.example.com", "shared.example"]}"#)
        try fixture.write("sites/other.example/apple-app-site-association", "{}")
        try fixture.write("sites/other.example/site.json", #"{"aliases": ["shared.example", "x.example"]}"#)
        try fixture.link("sites/www.example.com", to: "other.example")
        let directory = try SiteDirectory(root: fixture.url.appendingPathComponent("sites"))
        #expect(directory.site(forHost: "go.example.com")?.aliasOf == "example.com")
        #expect(directory.site(forHost: "go.example.com")?.folderPath.hasSuffix("/example.com") == true)
        #expect(directory.site(forHost: "shared.example") == nil)
        #expect(directory.site(forHost: "x.example")?.aliasOf == "other.example")
        #expect(directory.site(forHost: "other.example")?.aliasOf == nil)
        #expect(directory.site(forHost: "www.example.com")?.aliasOf == "other.example")
        let collisions = directory.settingsProblems.map { "\($0.path) \($0.code) \($0.message)" }
        #expect(collisions.count == 4, "\(collisions)")
        #expect(collisions.contains { $0.hasPrefix("example.com/site.json SITE014 the alias other.example") })
        #expect(collisions.contains { $0.contains("the alias www.example.com") && $0.contains("the link") })
        #expect(collisions.contains { $0.hasPrefix("example.com/site.json SITE017 the alias shared.example") })
        #expect(collisions.contains { $0.hasPrefix("other.example/site.json SITE017 the alias shared.example") })
        // Checked once, through its folder, as a link alias is.
        #expect(directory.sites.filter { $0.aliasOf == nil }.count == 2)
    }
}
