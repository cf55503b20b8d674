import Foundation
import Synchronization
import TestSupport
import Testing

@testable import AASATransport

/// The certificate loader's queue under a client naming many certificates (docs/security.md,
/// "Work a stranger can queue"): bounded per client source, taken in turns.
@Suite("the certificate loader's queue")
struct CertificateLoaderQueueTests {
    /// `count` certificate folders (copies of one pair: each its own chain file to load).
    static func certificates(_ count: Int, in folder: TemporaryFolder) throws -> CertificateStore {
        let issued = try TestCertificates(in: folder)
        try issued.issue("pair", names: ["a.test"])
        let pair = issued.directory.appendingPathComponent("pair")
        for index in 0..<count {
            try FileManager.default.copyItem(
                at: pair, to: issued.directory.appendingPathComponent(String(format: "c%03d", index)))
        }
        try FileManager.default.removeItem(at: pair)
        return try #require(CertificateStore.load(directory: issued.directory.path).store)
    }

    @Test("one source queues at most its share, the rest refused at once; another source's load comes next")
    func share() throws {
        let folder = try TemporaryFolder()
        let store = try Self.certificates(CertificateCache.perSource + 8, in: folder)
        let cache = store.cache
        let flood = Array(store.certificates.dropLast())
        let real = try #require(store.certificates.last)
        // The loader is coming (as the server says before its loops start): loads queue.
        cache.prepareLoader()
        var answers: [String: Int] = [:]
        for certificate in flood {
            switch cache.loaded(for: certificate, source: SourceSharesTests.client(1)) {
            case .loading: answers["loading", default: 0] += 1
            case .refused: answers["refused", default: 0] += 1
            default: answers["other", default: 0] += 1
            }
        }
        #expect(answers == ["loading": CertificateCache.perSource, "refused": 7])
        // Asked again while queued: the same load, not another place.
        guard case .loading = cache.loaded(for: flood[0], source: SourceSharesTests.client(1)) else {
            Issue.record("a queued certificate was not loading")
            return
        }
        guard case .loading = cache.loaded(for: real, source: SourceSharesTests.client(2)) else {
            Issue.record("another source was refused")
            return
        }
        #expect(cache.counts.refused == 7 && cache.counts.pending == CertificateCache.perSource + 1)

        let woken = Mutex<[WaitReason?]>([])
        let loader = Thread {
            cache.runLoader(wake: { reason in woken.withLock { $0.append(reason) } }, report: { _ in })
        }
        loader.start()
        defer { cache.stop() }
        #expect(eventually(10) { woken.withLock { $0.count } >= 2 })
        // The real client's certificate is loaded second, not behind the flood's 32.
        let order = woken.withLock { $0 }
        #expect(order.prefix(2).contains(.certificate(chain: real.files.chain)), "\(order.prefix(3))")
        #expect(eventually(10) { cache.counts.pending == 0 })
        #expect(cache.counts.loads == CertificateCache.perSource + 1)
        // Places free again once loaded.
        guard case .loading = cache.loaded(for: flood[flood.count - 1], source: SourceSharesTests.client(1)) else {
            Issue.record("the source's share did not come back")
            return
        }
    }
    @Test("sources that each fill their share never fill the queue for another source")
    func shares() throws {
        let folder = try TemporaryFolder()
        // One more source than the old total of 1,024 places let in: 33 × 32, and a real client.
        let flooders = 33
        let store = try Self.certificates(flooders * CertificateCache.perSource + 1, in: folder)
        let cache = store.cache
        cache.prepareLoader()
        var refused = 0
        for (index, certificate) in store.certificates.dropLast().enumerated() {
            if case .refused = cache.loaded(
                for: certificate, source: SourceSharesTests.client(UInt64(1 + index / CertificateCache.perSource)))
            {
                refused += 1
            }
        }
        #expect(refused == 0)
        guard
            case .loading = cache.loaded(
                for: try #require(store.certificates.last), source: SourceSharesTests.client(1000))
        else {
            Issue.record("a client was refused while each other source held only its share")
            return
        }
    }
}
