import Synchronization

/// The site table every event loop serves from. A reload swaps in a whole new table; each
/// loop notices the generation change at its next wake-up and takes the new table, so a
/// request is always answered from one complete, validated state.
public final class ContentStore: Sendable {
    private let current: Mutex<SiteTable>
    private let generationCounter = Atomic<Int>(0)

    public init(_ table: SiteTable) {
        current = Mutex(table)
    }

    public var generation: Int { generationCounter.load(ordering: .acquiring) }

    public var table: SiteTable { current.withLock { $0 } }

    public func replace(with table: SiteTable) {
        current.withLock { $0 = table }
        generationCounter.add(1, ordering: .releasing)
    }
}
