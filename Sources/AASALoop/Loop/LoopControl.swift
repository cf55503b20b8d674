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

    /// Set when the loop stopped on an error it cannot go on from.
    package var failure: String? { failed.withLock { $0 } }

    /// Records why the loop stopped and tells the server (`onFailure`), which must stop: a
    /// dead loop's listener would otherwise take connections nobody serves.
    func fail(_ reason: String) {
        failed.withLock { $0 = reason }
        onFailure()
    }

    package init(onFailure: @escaping @Sendable () -> Void = {}) throws(SystemError) {
        wakeUp = try WakeUpEvent()
        self.onFailure = onFailure
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
