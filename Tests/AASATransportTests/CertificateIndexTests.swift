import AASATransport
import Foundation
import Synchronization
import TestSupport
import Testing

/// The certificate index across reloads: a changed folder alone is read again, the rest kept.
@Suite("the certificate index")
struct CertificateIndexTests {
    @Test("a reload naming one folder re-reads it alone; a removed folder's certificate goes; no default by default")
    func folderReload() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        for name in ["a.test", "b.test", "c.test"] { try certificates.issue(name, names: [name]) }
        let directory = certificates.directory.path
        let first = try #require(CertificateStore.load(directory: directory).store)
        #expect(first.certificates.map(\.names) == [["a.test"], ["b.test"], ["c.test"]])
        #expect(first.defaultCertificate == nil)
        #expect(first.cache.counts.loaded == 0)

        try certificates.issue("a.test", names: ["a.test", "www.a.test"])
        try FileManager.default.removeItem(at: certificates.directory.appendingPathComponent("c.test"))
        // b.test changed too, but is not named: it stays as indexed (a later full load sees it).
        try certificates.issue("b.test", names: ["b.test", "www.b.test"])
        let second = try #require(
            CertificateStore.load(directory: directory, previous: first, folders: ["a.test", "c.test"]).store)
        #expect(second.certificates.map(\.names) == [["a.test", "www.a.test"], ["b.test"]])
        #expect(second.cache === first.cache)
        let everything = try #require(CertificateStore.load(directory: directory, previous: second).store)
        #expect(everything.certificates.map(\.names) == [["a.test", "www.a.test"], ["b.test", "www.b.test"]])
    }

    /// What a closure holds until it is released: the watch of a walk.
    final class Sentinel: Sendable {}

    @Test("a store let go frees its entries, and a walk keeps nothing it was given: nothing of a load leaks")
    func nothingKept() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        for name in ["a.test", "b.test"] { try certificates.issue(name, names: [name]) }
        let directory = certificates.directory.path
        weak var entry: CertificateStore.Certificate?
        weak var watched: Sentinel?
        do {
            let sentinel = Sentinel()
            watched = sentinel
            let store = try #require(
                CertificateStore.load(directory: directory, watch: { _, _ in _ = sentinel }).store)
            entry = store.certificates.first
            #expect(entry != nil)
        }
        // Each walk's and each index result's slot is released with the load's buffers.
        #expect(entry == nil)
        #expect(watched == nil)
    }

    @Test("each folder is given to the watch by its name below the folder, a combining mark first included")
    func watchedNames() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        // U+0301 joins the `/` before it into one Character: the name must be cut by bytes.
        for name in ["a.test", "\u{301}b.test", "nested/c.test"] { try certificates.issue(name, names: ["c.test"]) }
        let names = Mutex<[String]>([])
        _ = try CertificateStore.pairs(below: certificates.directory.path) { _, name in
            names.withLock { $0.append(name) }
        }
        let watched = names.withLock { $0 }.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        let expected = ["", "a.test", "\u{301}b.test", "ca", "nested", "nested/c.test"].map { Array($0.utf8) }
        #expect(watched == expected.sorted { $0.lexicographicallyPrecedes($1) })
    }
}
