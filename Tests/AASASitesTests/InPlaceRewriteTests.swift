import AASASystem
import Foundation
@preconcurrency import Glibc
import Synchronization
import TestSupport
import Testing

@testable import AASASites

/// A file rewritten in place (pwrite(2) over the old bytes, no rename) while a load reads it:
/// the read gives one version whole, or says the file kept changing, never bytes of two
/// versions (which, for two versions of the same shape, are valid JSON nobody wrote).
@Suite("files rewritten in place while read")
struct InPlaceRewriteTests {
    final class Stop: Sendable {
        let flag = Atomic<Bool>(false)
    }

    /// Two versions of one length that differ all along: any mix of the two is neither.
    static func version(_ letter: String) -> [UInt8] {
        Array(SiteFixtures.oneAppAASA(path: "/" + String(repeating: letter, count: 120_000)).utf8)
    }

    @Test("reads under a writer alternating two versions in place are one version whole or .changing")
    func neverMixed() throws {
        let folder = try TemporaryFolder("aasa-sites")
        let (first, second) = (Self.version("a"), Self.version("b"))
        let path = try folder.write("site/apple-app-site-association", String(decoding: first, as: UTF8.self))
        let site = try SiteFolder(path: folder.path("site"))
        let stop = Stop()
        let writer = open(path, O_WRONLY | O_CLOEXEC)
        #expect(writer >= 0)
        defer { close(writer) }
        let thread = Thread {
            var flip = false
            while !stop.flag.load(ordering: .relaxed) {
                let bytes = flip ? first : second
                _ = bytes.withUnsafeBytes { pwrite(writer, $0.baseAddress, $0.count, 0) }
                flip.toggle()
            }
        }
        thread.start()
        var (whole, changing, mixed) = (0, 0, 0)
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            switch site.read("apple-app-site-association", limit: 1 << 20) {
            case .regular(_, let bytes):
                if bytes == first || bytes == second { whole += 1 } else { mixed += 1 }
            case .changing: changing += 1
            default: Issue.record("an unexpected read")
            }
        }
        stop.flag.store(true, ordering: .relaxed)
        #expect(eventually(5) { thread.isFinished })
        #expect(mixed == 0, "\(mixed) mixed reads, \(whole) whole, \(changing) changing")
        #expect(whole + changing > 0)
        print("neverMixed: \(whole) whole, \(changing) changing, \(mixed) mixed")
        // Once the writes stop, the file reads whole.
        guard case .regular(_, let bytes) = site.read("apple-app-site-association", limit: 1 << 20) else {
            Issue.record("not read after the writer stopped")
            return
        }
        #expect(bytes == first || bytes == second)
    }

    @Test("a file just written is read once it has settled; one that kept changing is told to write by rename")
    func settled() throws {
        let folder = try TemporaryFolder("aasa-sites")
        try folder.write("site/apple-app-site-association", "{}")
        guard
            case .regular(let status, let bytes) = try SiteFolder(path: folder.path("site")).read(
                "apple-app-site-association", limit: 100)
        else {
            Issue.record("not read")
            return
        }
        #expect(bytes == Array("{}".utf8))
        #expect(status.size == 2)
        #expect(FileRead.changingReason.contains("rename it over this one"))
    }
}
