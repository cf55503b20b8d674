import AASATransport
import Synchronization

/// The certificates the loops hand to new TLS connections. A reload swaps in a new store
/// and lets go of the old one: each TLS connection keeps the store it began with
/// (`TLSSession.certificates`), so an old store and its OpenSSL contexts are freed when the
/// last connection using them closes, not kept for the life of the process.
public final class CertificateBox: Sendable {
    private let store: Mutex<CertificateStore>
    private let generationCounter = Atomic<Int>(0)

    public init(_ store: CertificateStore) {
        self.store = Mutex(store)
    }

    public var current: CertificateStore { store.withLock { $0 } }
    public var generation: Int { generationCounter.load(ordering: .acquiring) }

    public func replace(with store: CertificateStore) {
        self.store.withLock { $0 = store }
        generationCounter.add(1, ordering: .releasing)
    }
}
