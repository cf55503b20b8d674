import Synchronization

/// What the main thread holds of an event loop: a flag to stop it and a way to wake it.
public final class LoopControl: Sendable {
    let stopping = Atomic<Bool>(false)
    let wakeUp: WakeUpEvent

    init() throws(SystemError) {
        wakeUp = try WakeUpEvent()
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
