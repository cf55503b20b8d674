import AASASystem

/// A component that is threads of its own, each running its body until `stop` makes it
/// return: the event loops (one thread each), the admin listener's loop, the certificate
/// loader, the file watcher. `waitUntilStopped` joins them. A body that returns before the
/// group is asked to stop has ended on its own: the group reports it (with the reason the body
/// returns) to what its `policy` says.
final class ThreadGroup: ServerComponent {
    let name: String
    let policy: FailurePolicy
    let failures: FailureReport
    /// Handed to the threads at start and dropped here: from then on what a body holds (an
    /// event loop) is its thread's alone. Each returns why it ended, when it ended on its own.
    private var bodies: [@Sendable () -> String?]
    private let stopping: () -> Void
    /// What the group says once its threads run (where a listener listens).
    private let announce: () -> Void
    private let threads = ThreadSet()

    init(
        name: String, policy: FailurePolicy, failures: FailureReport = FailureReport(),
        bodies: [@Sendable () -> String?], stop: @escaping () -> Void, announce: @escaping () -> Void = {}
    ) {
        self.name = name
        self.policy = policy
        self.failures = failures
        self.bodies = bodies
        stopping = stop
        self.announce = announce
    }

    /// Starts one thread per body; a thread that cannot be made (EAGAIN: the process's or the
    /// system's thread limit) stops the threads already started and fails the start.
    func start() throws {
        defer { bodies.removeAll() }
        for body in bodies {
            do {
                // Silenced by `stop`: a body that returns after it has not failed.
                try threads.start(name) { [failures] in failures.report(body() ?? "its thread ended") }
            } catch {
                stop()
                waitUntilStopped()
                throw error
            }
        }
        announce()
    }

    func stop() {
        failures.silence()
        stopping()
    }

    func waitUntilStopped() {
        threads.join()
    }
}
