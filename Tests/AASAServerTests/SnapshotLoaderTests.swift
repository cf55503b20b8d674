import AASASites
import Foundation
import TestSupport
import Testing

@testable import AASAServer

/// The one loader of serving snapshots, in process: typed problems, last good files, outcomes.
@Suite("serving snapshots")
final class SnapshotLoaderTests {
    static let good = SiteFixtures.oneAppAASA(paths: "/a/*")
    static let other = SiteFixtures.oneAppAASA(paths: "/b/*")
    static let broken = "{\"applinks\": {\"details\": [],}}"

    let sites: TemporaryFolder
    var folder: URL { sites.url }
    func configuration() -> ServerConfiguration { sites.configuration() }
    func write(_ relativePath: String, _ text: String) throws { try sites.write(relativePath, text) }

    init() throws {
        sites = try TemporaryFolder("aasa-snapshot")
    }

    @Test("problems are values: code, severity, site, file, line and column, nothing parsed back from text")
    func typedProblems() throws {
        try write("sites/good.example/apple-app-site-association", Self.good)
        try write("sites/bad.example/apple-app-site-association", Self.broken)
        try write("sites/bad.example/assetlinks", "[]")
        let load = SnapshotLoader.load(configuration(), previous: nil)
        #expect(load.outcome == .failed)
        #expect(load.sitesReadable && !load.sitesValid)
        let syntax = try #require(load.problems.first { $0.code == "JSON003" })
        #expect(syntax.severity == .error)
        #expect(syntax.site == "bad.example")
        #expect(syntax.path.hasSuffix("sites/bad.example/apple-app-site-association"))
        #expect(syntax.lineNumber == 1 && syntax.column == 28)
        let misnamed = try #require(load.problems.first { $0.code == LoadProblem.Code.misnamedFile.rawValue })
        #expect(misnamed.site == "bad.example" && misnamed.severity == .warning)
        let snapshot = try #require(load.snapshot)
        #expect(snapshot.checks(ofSite: "good.example").count == 1)
        #expect(snapshot.table.content(named: "bad.example") == nil)
    }

    @Test("a reload shares nothing it should not: changed sites move, invalid ones keep their last good file")
    func reloadKeepsLastGood() throws {
        try write("sites/a.example/apple-app-site-association", Self.good)
        try write("sites/b.example/apple-app-site-association", Self.good)
        let first = SnapshotLoader.load(configuration(), previous: nil)
        #expect(first.outcome == .ok)
        let previous = try #require(first.snapshot)
        try write("sites/a.example/apple-app-site-association", Self.other)
        try write("sites/b.example/apple-app-site-association", Self.broken)
        let second = SnapshotLoader.load(configuration(), previous: previous)
        #expect(second.outcome == .partial)
        #expect(second.changed == ["a.example"])
        #expect(second.kept == ["b.example"])
        let next = try #require(second.snapshot)
        // b.example serves the very file object the previous snapshot served.
        #expect(next.table.content(named: "b.example") === previous.table.content(named: "b.example"))
        #expect(
            next.table.content(named: "a.example")?.apple?.etag
                != previous.table.content(named: "a.example")?.apple?.etag)
        #expect(next.problems.contains { $0.site == "b.example" && $0.severity == .error })
        try FileManager.default.removeItem(at: folder.appendingPathComponent("sites"))
        let third = SnapshotLoader.load(configuration(), previous: next)
        #expect(third.snapshot == nil && !third.sitesReadable && third.outcome == .failed)
        #expect(third.problems.map(\.code) == [LoadProblem.Code.sitesUnreadable.rawValue])
    }

    @Test("a deleted file serves out its grace, also in an invalid site; without a grace it is gone at once")
    func deletedFiles() throws {
        let android = SiteFixtures.oneAppAssetLinks()
        try write("sites/a.example/apple-app-site-association", Self.good)
        try write("sites/a.example/assetlinks.json", android)
        var settings = configuration()
        let first = try #require(SnapshotLoader.load(settings, previous: nil).snapshot)
        let apple = try #require(first.table.content(named: "a.example")?.apple)
        // The Apple file deleted and the Android one broken: the site keeps both last copies.
        try FileManager.default.removeItem(
            at: folder.appendingPathComponent("sites/a.example/apple-app-site-association"))
        try write("sites/a.example/assetlinks.json", "[")
        let second = SnapshotLoader.load(settings, previous: first)
        let graced = try #require(second.snapshot)
        #expect(graced.table.content(named: "a.example")?.apple === apple)
        #expect(graced.catalog.records["a.example"]?.deletedFiles.map(\.kind) == [.apple])
        #expect(second.deletions.map(\.code) == [LoadProblem.Code.fileDeleted.rawValue])
        #expect(graced.counts.deletedFiles == 1 && graced.counts.graceEnds != nil)
        // Without a grace the deleted file goes; the broken one keeps its last good copy.
        settings.deletedFileGrace = 0
        let third = try #require(SnapshotLoader.load(settings, previous: graced).snapshot)
        #expect(third.table.content(named: "a.example")?.apple == nil)
        #expect(third.table.content(named: "a.example")?.android != nil)
        #expect(third.catalog.records["a.example"]?.deletedFiles.isEmpty == true)
    }
}
