import Dispatch
import Foundation

/// A component that is threads of its own, each running its body until `stop` makes it
/// return: the event loops (one thread each), the admin listener's loop, the file watcher.
final class ThreadGroup: ServerComponent {
    let name: String
    /// Handed to the threads at start and dropped here: from then on what a body holds (an
    /// event loop) is its thread's alone.
    private var bodies: [@Sendable () -> Void]
    private let stopping: () -> Void
    private let failed: () -> String?
    /// What the group says once its threads run (where a listener listens).
    private let announce: () -> Void
    private let finished = DispatchSemaphore(value: 0)
    private var running = 0

    init(
        name: String, bodies: [@Sendable () -> Void], stop: @escaping () -> Void,
        failure: @escaping () -> String? = { nil }, announce: @escaping () -> Void = {}
    ) {
        self.name = name
        self.bodies = bodies
        stopping = stop
        failed = failure
        self.announce = announce
    }

    func start() {
        let finished = self.finished
        for body in bodies {
            let thread = Thread {
                body()
                finished.signal()
            }
            thread.name = name
            thread.start()
        }
        running = bodies.count
        bodies.removeAll()
        announce()
    }

    func stop() { stopping() }

    func waitUntilStopped() {
        for _ in 0..<running { finished.wait() }
        running = 0
    }

    var failure: String? { failed() }
}
