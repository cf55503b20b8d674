import Synchronization

/// Publishes what the loops answer from: their handler's `Content` (the sites' snapshot). A
/// load swaps in a whole new value and bumps the generation; each event loop compares the
/// generation (one atomic load) at its next wake-up and hands the new value to its handler,
/// so a request is always answered from one complete, validated state, and the old value
/// goes when its last holder lets go of it.
public final class ContentBox<Content: Sendable>: Sendable {
    private let content: Mutex<Content>
    private let generationCounter = Atomic<Int>(0)

    public init(_ content: Content) {
        self.content = Mutex(content)
    }

    public var generation: Int { generationCounter.load(ordering: .acquiring) }

    public var current: Content { content.withLock { $0 } }

    public func publish(_ next: Content) {
        content.withLock { $0 = next }
        generationCounter.add(1, ordering: .releasing)
    }
}
