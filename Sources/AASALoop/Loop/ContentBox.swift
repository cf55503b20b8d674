import Synchronization

/// Publishes the current `ServingSnapshot`. A load swaps in a whole new snapshot and bumps
/// the generation; each event loop compares the generation (one atomic load) at its next
/// wake-up and takes the new snapshot, so a request is always answered from one complete,
/// validated state, and the old snapshot goes when the last holder lets go of it.
public final class SnapshotBox: Sendable {
    private let snapshot: Mutex<ServingSnapshot>
    private let generationCounter = Atomic<Int>(0)

    public init(_ snapshot: ServingSnapshot) {
        self.snapshot = Mutex(snapshot)
    }

    public var generation: Int { generationCounter.load(ordering: .acquiring) }

    public var current: ServingSnapshot { snapshot.withLock { $0 } }

    public func publish(_ next: ServingSnapshot) {
        snapshot.withLock { $0 = next }
        generationCounter.add(1, ordering: .releasing)
    }
}
