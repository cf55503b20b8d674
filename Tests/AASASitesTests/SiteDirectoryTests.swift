import Foundation
import TestSupport
import Testing

@testable import AASASites

/// The sites folder as the server and `match --sites` read it (docs/sites.md, "Sites layout"):
/// folders by name, links to sibling folders as aliases, `*.domain` folders as wildcards, and
/// what is not served with the reason.
@Suite("site directory: wildcards, aliases, skipped entries")
struct SiteDirectoryTests {
    /// example.com, *.example.com, *.shop.example.com, Upper.Example, an alias, and entries
    /// that are not sites (a file, a hidden folder, a dangling link, a link leading outside).
    static func layout() throws -> TemporaryFolder {
        let fixture = try TemporaryFolder("aasa-sites")
        for name in ["example.com", "*.example.com", "*.shop.example.com", "Upper.Example", ".git"] {
            try fixture.folder("sites/" + name)
        }
        try fixture.folder("outside")
        try fixture.write("sites/notes.txt", "not a site")
        try fixture.link("sites/www.example.com", to: "example.com")
        try fixture.link("sites/gone.example", to: "nowhere")
        try fixture.link("sites/escape.example", to: fixture.path("outside"))
        return fixture
    }

    @Test(
        "a host finds its exact folder, else the longest wildcard; never a wildcard for the domain itself",
        arguments: [
            ("example.com", "example.com"), ("EXAMPLE.COM", "example.com"), ("example.com:8443", "example.com"),
            ("example.com.", "example.com"), ("a.example.com", "*.example.com"),
            ("x.y.example.com", "*.example.com"), ("shop.example.com", "*.example.com"),
            ("a.shop.example.com", "*.shop.example.com"), ("www.example.com", "www.example.com"),
            ("upper.example", "upper.example"), ("example.org", nil), ("", nil), ("example.com/..", nil),
            ("../etc", nil), ("gone.example", nil), ("escape.example", nil), ("notes.txt", nil),
        ] as [(String, String?)])
    func lookup(_ host: String, _ expected: String?) throws {
        let fixture = try Self.layout()
        let directory = try SiteDirectory(root: fixture.url.appendingPathComponent("sites"))
        #expect(directory.site(forHost: host)?.name == expected)
    }

    @Test("aliases name their folder; a dangling link and a link leading outside are skipped, saying why")
    func aliasesAndSkipped() throws {
        let fixture = try Self.layout()
        let directory = try SiteDirectory(root: fixture.url.appendingPathComponent("sites"))
        #expect(
            directory.sites.map(\.name).sorted() == [
                "*.example.com", "*.shop.example.com", "example.com", "upper.example", "www.example.com",
            ])
        let alias = try #require(directory.sites.first { $0.name == "www.example.com" })
        #expect(alias.aliasOf == "example.com")
        #expect(alias.folderPath == directory.sites.first { $0.name == "example.com" }?.folderPath)
        #expect(directory.sites.first { $0.name == "upper.example" }?.entry == "Upper.Example")
        #expect(directory.sites.allSatisfy { $0.name == "www.example.com" || $0.aliasOf == nil })
        #expect(directory.skipped.keys.sorted() == ["escape.example", "gone.example"])
        #expect(directory.skipped["gone.example"]?.reason.contains("dangling") == true)
        #expect(directory.skipped["escape.example"]?.reason.contains("leads outside the sites folder") == true)
    }

    @Test(
        "files named almost like an association file are found with the name they should have",
        arguments: [
            (["apple-app-site-association"], [String]()),
            (["apple-app-site-association.json"], ["apple-app-site-association"]),
            (["Apple-App-Site-Association"], ["apple-app-site-association"]), (["assetlinks"], ["assetlinks.json"]),
            (["assetlinks.json.bak", "assetlinks.json"], ["assetlinks.json"]),
            ([".well-known"], ["apple-app-site-association"]), (["index.html", "expectations.json"], []),
        ] as [([String], [String])])
    func misnamed(_ names: [String], _ expected: [String]) {
        #expect(SiteDirectory.misnamedFiles(among: names).map(\.expected) == expected)
    }
}
