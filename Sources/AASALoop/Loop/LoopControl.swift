import AASASystem
import AASATransport
import Synchronization

/// What the main thread holds of an event loop: a flag to stop it, a way to wake it, and
/// why it failed, if it did.
public final class LoopControl: Sendable {
    let stopping = Atomic<Bool>(false)
    let wakeUp: WakeUpEvent
    private let failed = Mutex<String?>(nil)
    /// Answers that came for the loop's waiting connections since it last looked.
    private let answers = Mutex(Answers())
    private struct Answers {
        var reasons: [WaitReason] = []
        var everything = false
    }
    static var mostAnswers: Int { 256 }
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

    /// Wakes the loop so it picks up a new site table at once; every paused handshake and
    /// parked request is tried again.
    public func wake() {
        answers.withLock { $0.everything = true }
        wakeUp.signal()
    }

    /// Wakes the loop for one answer that came (a certificate loaded, a challenge looked up):
    /// only the connections waiting for it are tried again (`WaitingRoom`).
    package func wake(for reason: WaitReason?) {
        answers.withLock { answers in
            // Past the bound, trying everything again costs less than remembering more.
            if let reason, answers.reasons.count < Self.mostAnswers {
                answers.reasons.append(reason)
            } else {
                answers.everything = true
            }
        }
        wakeUp.signal()
    }

    /// What came since the last call (on the loop's thread, after a wake-up).
    func takeAnswers() -> (reasons: [WaitReason], everything: Bool) {
        answers.withLock { answers in
            defer { answers = Answers() }
            return (answers.reasons, answers.everything)
        }
    }
}
