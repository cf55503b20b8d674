import Synchronization

/// A lock across replicas, held until `SharedStore.unlock` or until this object goes away
/// (whichever comes first); the engine's hold (a flock(2)ed descriptor, a PostgreSQL session)
/// is released once.
public final class StoreLock: Sendable {
    public let name: String
    private let release: Mutex<(@Sendable () -> Void)?>

    package init(name: String, release: @escaping @Sendable () -> Void) {
        self.name = name
        self.release = Mutex(release)
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
