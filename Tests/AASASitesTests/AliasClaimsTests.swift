import AssociationKit
import Foundation
import TestSupport
import Testing

@testable import AASASites

/// A tenant's `site.json` claims only names nobody else's entry covers, whatever the order the
/// folders are listed in (docs/security.md, "Aliases a tenant can claim").
@Suite("site.json aliases confined")
struct AliasClaimsTests {
    /// The victim: a folder, its wildcard, and an alias of its own in site.json.
    static func sites(attacker: String, claims: [String]) throws -> (TemporaryFolder, SiteDirectory) {
        let fixture = try TemporaryFolder("aasa-claims")
        try fixture.write("sites/victim.example/apple-app-site-association", "{}")
        try fixture.write("sites/victim.example/site.json", #"{"aliases": ["victim-links.example"]}"#)
        try fixture.write("sites/*.victim.example/apple-app-site-association", "{}")
        try fixture.write("sites/\(attacker)/apple-app-site-association", "{}")
        let list = claims.map { "\"\($0)\"" }.joined(separator: ", ")
        try fixture.write("sites/\(attacker)/site.json", #"{"aliases": [\#(list), "own.attacker.example"]}"#)
        return (fixture, try SiteDirectory(root: fixture.url.appendingPathComponent("sites")))
    }

    @Test(
        "an alias another site's folder, wildcard or alias covers, or no exact host, is refused with a stable code",
        arguments: [
            ("pr-1.staging.victim.example", "SITE014", "*.victim.example"),
            ("victim.example", "SITE014", "the site folder victim.example"),
            ("*.victim.example", "SITE016", "a wildcard"),
            ("*.com", "SITE016", "a wildcard"),
            ("127.0.0.1", "SITE016", "an IP address"),
            ("localhost", "SITE016", "localhost"),
            ("victim-links.example", "SITE017", "victim.example's site.json"),
        ], ["aa-attacker.example", "zz-attacker.example"])
    func confined(_ row: (claimed: String, code: String, named: String), attacker: String) throws {
        let (claimed, code, named) = row
        let (fixture, directory) = try Self.sites(attacker: attacker, claims: [claimed])
        _ = fixture
        let problem = try #require(directory.settingsProblems.first { $0.path == "\(attacker)/site.json" })
        #expect(problem.code == code, "\(problem.rendered)")
        #expect(problem.site == attacker && problem.message.contains(named), "\(problem.message)")
        #expect(problem.lineNumber == 1 && problem.column == 14)
        #expect(directory.site(forHost: "own.attacker.example")?.aliasOf == attacker)
        // The victim's names reach the victim's folders, or (an alias two sites claim) nobody.
        for host in ["victim.example", "pr-1.staging.victim.example", "x.victim.example", "victim-links.example"] {
            let served = directory.site(forHost: host)
            #expect(served.map { $0.aliasOf ?? $0.name } != attacker, "\(host)")
        }
        #expect(directory.site(forHost: "pr-1.staging.victim.example")?.name == "*.victim.example")
        let victimLinks = directory.site(forHost: "victim-links.example")?.aliasOf
        #expect(victimLinks == (code == "SITE017" ? nil : "victim.example"))
        if code == "SITE017" {
            let victims = directory.settingsProblems.filter { $0.site == "victim.example" }
            #expect(victims.map(\.code) == ["SITE017"])
            #expect(victims.first?.message.contains("\(attacker)'s site.json") == true)
        }
    }

    @Test(
        "two claims of one name: refused for both, the same whichever is read first",
        arguments: [
            (
                ["b.example": ["x.example"], "a.example": ["x.example"]], [:],
                ["a.example SITE017", "b.example SITE017"]
            ),
            (
                ["a.example": ["x.example", "y.example"], "b.example": ["y.example"]], ["x.example": "a.example"],
                ["a.example SITE017", "b.example SITE017"]
            ),
            (
                ["a.example": ["go.c.example"], "b.example": ["c.example"]], [:],
                ["a.example SITE014", "b.example SITE014"]
            ),
            (["a.example": ["free.example"]], ["free.example": "a.example"], []),
        ] as [([String: [String]], [String: String], [String])])
    func settle(_ claims: [String: [String]], _ granted: [String: String], _ problems: [String]) {
        // The sites folder holds c.example and *.c.example.
        let holders = ["c.example": "the site folder c.example", "*.c.example": "the site folder *.c.example"]
        let list = claims.map { AliasClaims.Claim(site: $0.key, path: $0.key, aliases: $0.value, locations: [:]) }
        for order in [list, list.reversed()] {
            let settled = AliasClaims.settle(order) { holders[$0] }
            #expect(settled.granted == granted)
            #expect(settled.problems.map { "\($0.site ?? "") \($0.code)" }.sorted() == problems)
        }
    }

    @Test(
        "a served alias stays with its site while it lists it; a newcomer's claim is SITE017 naming both",
        arguments: [
            // A serves x; B adds x: A keeps it, B is refused.
            (
                ["a.example": ["x.example"], "b.example": ["x.example"]], ["x.example": "a.example"], "a.example",
                ["b.example SITE017"]
            ),
            // Three claims: the incumbent keeps it, both newcomers are refused.
            (
                ["a.example": ["x.example"], "b.example": ["x.example"], "c2.example": ["x.example"]],
                ["x.example": "a.example"], "a.example", ["b.example SITE017", "c2.example SITE017"]
            ),
            // The incumbent dropped it: the two left are refused, as with no incumbent.
            (
                ["b.example": ["x.example"], "d.example": ["x.example"]], ["x.example": "a.example"], nil,
                ["b.example SITE017", "d.example SITE017"]
            ),
            // The incumbent dropped it and one claim is left: that one is served.
            (["b.example": ["x.example"]], ["x.example": "a.example"], "b.example", []),
            // A folder or wildcard beats an incumbent alias (SITE014), as it beats any alias.
            (
                ["a.example": ["go.c.example"], "b.example": ["go.c.example"]], ["go.c.example": "a.example"], nil,
                ["a.example SITE014", "b.example SITE014"]
            ),
        ] as [([String: [String]], [String: String], String?, [String])])
    func incumbent(
        _ claims: [String: [String]], _ incumbents: [String: String], _ served: String?, _ problems: [String]
    ) {
        let holders = ["c.example": "the site folder c.example", "*.c.example": "the site folder *.c.example"]
        let list = claims.map { AliasClaims.Claim(site: $0.key, path: $0.key, aliases: $0.value, locations: [:]) }
        let alias = claims.values.first?.first ?? ""
        for order in [list, list.reversed()] {
            let settled = AliasClaims.settle(order, incumbents: incumbents) { holders[$0] }
            #expect(settled.granted[alias] == served)
            #expect(settled.problems.map { "\($0.site ?? "") \($0.code)" }.sorted() == problems)
            for problem in settled.problems where problem.code == "SITE017" && served != nil {
                let named = "\(served ?? "")'s site.json"
                #expect(
                    problem.message.contains(named) && problem.message.contains("\(problem.site ?? "")'s site.json"))
            }
        }
    }
}
