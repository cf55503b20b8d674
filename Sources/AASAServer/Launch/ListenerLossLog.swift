import Logging
import Synchronization

/// Says once that a listener stopped accepting for good: the loops sharing a passed socket each
/// lose it (each counts it in its `LoopStatistics`), and one line is enough.
final class ListenerLossLog: Sendable {
    private let said = Atomic<Bool>(false)
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    func note(_ reason: String) {
        guard !said.exchange(true, ordering: .relaxed) else { return }
        logger.error("\(reason); no new connection is taken there, and /readyz fails until a restart")
    }
}
