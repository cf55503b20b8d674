import AASAACME
import AASASites
import Foundation
import TestSupport
import Testing

@testable import AASAServer

/// `site.json` aliases through the one loader, in process: in the catalog's aliases (so in
/// ACME's plans, the CDN watch and the listings), and settled again by an incremental reload.
@Suite("site.json aliases in snapshots")
final class SiteAliasFileLoaderTests {
    static let good = SiteFixtures.oneAppAASA(paths: "/a/*")
    let sites: TemporaryFolder
    var folder: URL { sites.url }
    func configuration() -> ServerConfiguration { sites.configuration() }
    func write(_ relativePath: String, _ text: String) throws { try sites.write(relativePath, text) }

    init() throws {
        sites = try TemporaryFolder("aasa-site-json")
    }

    @Test("an alias is in the certificate plans; a folder made for its name takes it, and gives it back when gone")
    func settles() throws {
        try write("sites/example.com/apple-app-site-association", Self.good)
        try write("sites/example.com/site.json", #"{"aliases": ["go.example.com", "b.example"]}"#)
        let first = SnapshotLoader.load(configuration(), previous: nil)
        #expect(first.outcome == .ok, "\(first.problems.map(\.rendered))")
        let snapshot = try #require(first.snapshot)
        #expect(snapshot.catalog.aliases == ["go.example.com": "example.com", "b.example": "example.com"])
        #expect(snapshot.counts.aliases == 2)
        let plans = snapshot.certificatePlans(acmeFolder: folder.appendingPathComponent("acme").path)
        #expect(plans.contains { $0.names == ["example.com", "b.example", "go.example.com"] }, "\(plans)")
        #expect(snapshot.table.content(named: "b.example") === snapshot.table.content(named: "example.com"))

        // A folder for b.example (an inotify event for that entry alone): the folder serves it.
        try write("sites/b.example/apple-app-site-association", Self.good.replacingOccurrences(of: "/a/", with: "/b/"))
        let second = SnapshotLoader.load(
            configuration(), previous: snapshot, changes: ChangeSet(sites: ["b.example"], certificates: false))
        let next = try #require(second.snapshot)
        #expect(next.catalog.aliases == ["go.example.com": "example.com"])
        #expect(next.table.content(named: "b.example") !== next.table.content(named: "example.com"))
        #expect(second.problems.contains { $0.code == LoadProblem.Code.siteAliasCollides.rawValue })

        // The folder gone: the alias serves again.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("sites/b.example"))
        let third = SnapshotLoader.load(
            configuration(), previous: next, changes: ChangeSet(sites: ["b.example"], certificates: false))
        let last = try #require(third.snapshot)
        #expect(last.catalog.aliases["b.example"] == "example.com")
        #expect(last.table.content(named: "b.example") === last.table.content(named: "example.com"))
        #expect(!third.problems.contains { $0.code == LoadProblem.Code.siteAliasCollides.rawValue })

        // An event naming an alias that is no entry leaves it served.
        let fourth = SnapshotLoader.load(
            configuration(), previous: last, changes: ChangeSet(sites: ["go.example.com"], certificates: false))
        #expect(try #require(fourth.snapshot).table.content(named: "go.example.com") != nil)
    }

    @Test(
        "a folder's aliases split into certificates of at most 100 names; one under a wildcard is in none",
        arguments: [(0, [1]), (99, [100]), (150, [100, 51]), (250, [100, 100, 51])])
    func plansSplit(_ count: Int, _ sizes: [Int]) throws {
        try write("sites/example.com/apple-app-site-association", Self.good)
        try write("sites/*.staging.example.com/apple-app-site-association", Self.good)
        let names = (0..<count).map { "\"a\($0).example.org\"" } + ["\"pr-1.staging.example.com\""]
        try write("sites/example.com/site.json", "{\"aliases\": [\(names.joined(separator: ", "))]}")
        let snapshot = try #require(SnapshotLoader.load(configuration(), previous: nil).snapshot)
        let plans = snapshot.certificatePlans(acmeFolder: folder.appendingPathComponent("acme").path)
        // Plans come sorted by their first name: the folder's holds it and the first 99 aliases.
        #expect(plans.map(\.names.count).sorted(by: >) == sizes)
        #expect(plans.first { $0.primary == "example.com" }?.names.count == sizes[0])
        #expect(plans.allSatisfy { !$0.names.contains("pr-1.staging.example.com") })
        #expect(Set(plans.flatMap(\.names)).count == count + 1)
    }

    @Test("a wildcard folder added later takes back a name a tenant's site.json claimed under it")
    func wildcardLater() throws {
        try write("sites/tenant.example/apple-app-site-association", Self.good)
        try write("sites/tenant.example/site.json", #"{"aliases": ["pr-1.victim.example"]}"#)
        let first = try #require(SnapshotLoader.load(configuration(), previous: nil).snapshot)
        #expect(first.catalog.aliases["pr-1.victim.example"] == "tenant.example")

        try write(
            "sites/*.victim.example/apple-app-site-association", Self.good.replacingOccurrences(of: "/a/", with: "/v/"))
        let second = SnapshotLoader.load(
            configuration(), previous: first, changes: ChangeSet(sites: ["*.victim.example"], certificates: false))
        let next = try #require(second.snapshot)
        #expect(next.catalog.aliases["pr-1.victim.example"] == nil)
        #expect(next.table.site(forHost: "pr-1.victim.example") === next.table.content(named: "*.victim.example"))
        #expect(second.problems.contains { $0.code == "SITE014" && $0.site == "tenant.example" })
    }
}
