import AASASystem
import AssociationKit
import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

@testable import AASASites

/// A site folder is opened once and its files read beneath that descriptor with O_NOFOLLOW
/// (open(2), openat(2)): what its path leads to later does not matter (docs/serving.md,
/// "Reading a site's files").
@Suite("site folders opened once")
struct SiteFolderTests {
    static let good = SiteFixtures.oneAppAASA(paths: "/a/*")
    static let secret = SiteFixtures.secretAASA
    static let name = SiteDirectory.appleFileName

    @Test("a folder is read through the descriptor opened first, whatever its path leads to afterwards")
    func folderSwappedAfterOpening() throws {
        let folder = try TemporaryFolder("aasa-sites")
        try folder.write("sites/example.com/\(Self.name)", Self.good)
        try folder.write("outside/\(Self.name)", Self.secret)
        let path = folder.url.appendingPathComponent("sites/example.com").path
        let site = try SiteFolder(path: path, followingLink: false)
        // The folder is moved away and a link to another folder takes its name.
        #expect(rename(path, path + ".old") == 0)
        try folder.link("sites/example.com", to: folder.path("outside"))
        let check = FileCheck(
            named: Self.name, in: site, shownAs: path + "/" + Self.name, kind: .apple,
            signing: SignedFileContext(reader: .unavailable, now: 0))
        #expect(check.isValid)
        #expect(check.bytes.map { Data($0) } == Data(Self.good.utf8))
        #expect(try site.entries().map(\.name) == [Self.name])
        // Opened anew, the link in place of the folder is refused with O_NOFOLLOW.
        #expect(throws: SystemError.self) { try SiteFolder(path: path, followingLink: false) }
    }
}
