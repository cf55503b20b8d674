import AASALoop
import AASASiteServing
import Synchronization

/// Publishes each load to its two kinds of reader at once: the loops' `SnapshotBox` gets the
/// serving half (one atomic load per wake-up, nothing more on the request path), the admin
/// listener and the watchers the whole `ServerSnapshot`, whose serving half is the one the
/// loops were given, so a page never mixes two loads.
public final class ServerSnapshotBox: Sendable {
    /// What the loops (and ACME's handshake hooks) read.
    public let serving: SnapshotBox
    private let snapshot: Mutex<ServerSnapshot>

    public init(_ snapshot: ServerSnapshot) {
        serving = SnapshotBox(snapshot.serving)
        self.snapshot = Mutex(snapshot)
    }

    public var current: ServerSnapshot { snapshot.withLock { $0 } }

    func publish(_ next: ServerSnapshot) {
        snapshot.withLock { current in
            current = next
            serving.publish(next.serving)
        }
    }
}
