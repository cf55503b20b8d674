import AASATransport
import Foundation
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
}
