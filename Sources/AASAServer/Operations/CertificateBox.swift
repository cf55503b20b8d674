import Synchronization

/// The certificates the loops hand to new TLS connections. A reload swaps in a new store;
/// every store ever installed is kept, because an SNI callback in the middle of a handshake
/// may still point at an older one (certificates change every 60–90 days, so this grows by
/// a few small objects a year).
public final class CertificateBox: Sendable {
    private let stores: Mutex<[CertificateStore]>
    private let generationCounter = Atomic<Int>(0)

    public init(_ store: CertificateStore) {
        stores = Mutex([store])
    }

    public var current: CertificateStore { stores.withLock { $0.last! } }
    public var generation: Int { generationCounter.load(ordering: .acquiring) }

    public func replace(with store: CertificateStore) {
        stores.withLock { $0.append(store) }
        generationCounter.add(1, ordering: .releasing)
    }
}
