import Synchronization

/// A lock across replicas, held until `SharedStore.unlock` or until this object goes away
/// (whichever comes first); the engine's hold (a flock(2)ed descriptor, a PostgreSQL session)
/// is released once.
public final class StoreLock: Sendable {
    public let name: String
    private let release: Mutex<(@Sendable () -> Void)?>
    /// Whether the engine's hold is still there (nil: as long as it is not released).
    private let check: (@Sendable () -> Bool)?

    package init(
        name: String, check: (@Sendable () -> Bool)? = nil, release: @escaping @Sendable () -> Void
    ) {
        self.name = name
        self.check = check
        self.release = Mutex(release)
    }

    /// Not released, and the engine's hold still there.
    package func stillHeld() -> Bool {
        isHeld && (check?() ?? true)
    }

    /// Releases the hold; later calls do nothing.
    package func releaseHold() {
        let action = release.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    /// Whether `releaseHold` has not run yet.
    public var isHeld: Bool { release.withLock { $0 != nil } }

    deinit {
        releaseHold()
    }
}
