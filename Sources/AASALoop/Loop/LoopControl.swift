import AASASystem
import AASATransport
import Synchronization

/// What the main thread holds of an event loop: a flag to stop it, a way to wake it, and
/// why it failed, if it did.
public final class LoopControl: Sendable {
    let stopping = Atomic<Bool>(false)
    let wakeUp: WakeUpEvent
    private let failed = Mutex<String?>(nil)
    /// Called after a failure is recorded: the server wakes its main thread with it.
    private let onFailure: @Sendable () -> Void
    /// Called when a listener of the loop stops accepting for good (`EventLoop.loseListener`).
    private let onListenerLost: @Sendable (String) -> Void

    /// Set when the loop stopped on an error it cannot go on from.
    package var failure: String? { failed.withLock { $0 } }

    /// Records why the loop stopped and tells the server (`onFailure`), which must stop: a
    /// dead loop's listener would otherwise take connections nobody serves.
    func fail(_ reason: String) {
        failed.withLock { $0 = reason }
        onFailure()
    }

    package init(
        onFailure: @escaping @Sendable () -> Void = {}, onListenerLost: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(SystemError) {
        wakeUp = try WakeUpEvent()
        self.onFailure = onFailure
        self.onListenerLost = onListenerLost
    }

    /// A listener stopped accepting for good; the loop goes on with its connections.
    func listenerLost(_ reason: String) {
        onListenerLost(reason)
    }

    /// Asks the loop to stop accepting, finish the responses in flight, and return.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        wakeUp.signal()
    }

    /// Wakes the loop so it picks up a new site table at once.
    public func wake() {
        wakeUp.signal()
    }
}
