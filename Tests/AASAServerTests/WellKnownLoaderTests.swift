import AASALoop
import AASASites
import Foundation
import TestSupport
import Testing

@testable import AASAServer

/// The new kinds through the loader in process: identical Apple Pay files shared across sites,
/// the `well-known/` folder read, reloaded and deleted with a grace, `site.json`'s keys.
@Suite("well-known files loaded")
final class WellKnownLoaderTests {
    static let applePay = String(repeating: "7B2270737049644422A223730444642", count: 140)

    let sites: TemporaryFolder

    init() throws {
        sites = try TemporaryFolder("aasa-well-known")
    }

    @Test("10,000 sites with the same Apple Pay file serve one prepared copy of it")
    func sharedCopies() throws {
        for index in 0..<10_000 {
            try sites.write("sites/m\(index).example/apple-developer-merchantid-domain-association", Self.applePay)
        }
        // One site with its own file, which is not shared.
        try sites.write("sites/other.example/apple-developer-merchantid-domain-association", Self.applePay + "0")
        let snapshot = try #require(SnapshotLoader.load(sites.configuration(), previous: nil).snapshot)
        var copies = Set<ObjectIdentifier>()
        for index in 0..<10_000 {
            let file = try #require(snapshot.table.content(named: "m\(index).example")?.file(.applePay))
            copies.insert(ObjectIdentifier(file))
        }
        #expect(copies.count == 1)
        let other = try #require(snapshot.table.content(named: "other.example")?.file(.applePay))
        #expect(!copies.contains(ObjectIdentifier(other)))
        #expect(other.body.count == Self.applePay.utf8.count + 1)
    }

    @Test("well-known/: served by name, a new file read on reload, a deleted one graced, site.json's keys")
    func folder() throws {
        try sites.write("sites/a.example/apple-app-site-association", SiteFixtures.oneAppAASA())
        try sites.write("sites/a.example/well-known/gpc.json", #"{"gpc": true}"#)
        try sites.write("sites/a.example/well-known/.hidden", "no")
        try sites.write("sites/a.example/well-known/security.txt", "belongs in the site folder")
        try sites.write(
            "sites/a.example/site.json",
            #"{"changePassword": "https://a.example/password", "cacheControl": {"well-known": "max-age=5"}}"#)
        let settings = sites.configuration()
        let first = SnapshotLoader.load(settings, previous: nil)
        let snapshot = try #require(first.snapshot)
        let content = try #require(snapshot.table.content(named: "a.example"))
        #expect(content.folderFilesByName.keys.sorted() == ["gpc.json"])
        #expect(content.changePassword?.location == "https://a.example/password")
        #expect(
            snapshot.checks(ofSite: "a.example").map(\.name) == ["apple-app-site-association", "well-known/gpc.json"])
        #expect(
            first.problems.contains {
                $0.code == LoadProblem.Code.misnamedFile.rawValue && $0.path.hasSuffix("well-known/security.txt")
            })
        // Unchanged, the record is kept as it was.
        let again = try #require(SnapshotLoader.load(settings, previous: snapshot).snapshot)
        #expect(again.table.content(named: "a.example") === content)
        // A new file is read; the deleted one serves out its grace.
        try sites.write("sites/a.example/well-known/nodeinfo", "{}")
        try FileManager.default.removeItem(at: sites.url.appendingPathComponent("sites/a.example/well-known/gpc.json"))
        let second = SnapshotLoader.load(settings, previous: again)
        let graced = try #require(second.snapshot)
        let kept = try #require(graced.table.content(named: "a.example"))
        #expect(kept.folderFilesByName.keys.sorted() == ["gpc.json", "nodeinfo"])
        #expect(kept.folderFile("gpc.json") === content.folderFile("gpc.json"))
        #expect(graced.catalog.records["a.example"]?.deletedFiles.map(\.name) == ["well-known/gpc.json"])
        #expect(second.deletions.count == 1)
        var noGrace = settings
        noGrace.deletedFileGrace = 0
        let third = try #require(SnapshotLoader.load(noGrace, previous: graced).snapshot)
        #expect(third.table.content(named: "a.example")?.folderFilesByName.keys.sorted() == ["nodeinfo"])
    }

    @Test("an expired security.txt makes the site invalid; its last good copy serves; Expires is kept for the metric")
    func securityTxt() throws {
        let future = "Contact: mailto:s@a.example\nExpires: 2099-01-01T00:00:00Z\n"
        try sites.write("sites/a.example/security.txt", future)
        let first = try #require(SnapshotLoader.load(sites.configuration(), previous: nil).snapshot)
        let served = try #require(first.table.content(named: "a.example")?.file(.securityTxt))
        #expect(first.checks(ofSite: "a.example").first?.expires == 4_070_908_800)
        try sites.write("sites/a.example/security.txt", "Contact: mailto:s@a.example\nExpires: 2020-01-01T00:00:00Z\n")
        let second = SnapshotLoader.load(sites.configuration(), previous: first)
        let next = try #require(second.snapshot)
        #expect(next.catalog.records["a.example"]?.state == .keptLastGood)
        #expect(next.table.content(named: "a.example")?.file(.securityTxt) === served)
        #expect(second.problems.contains { $0.code == "SEC004" })
    }
}
