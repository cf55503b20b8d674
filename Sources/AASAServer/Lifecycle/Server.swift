import AASASystem
@preconcurrency import Glibc
import Logging
import Synchronization

/// The running server: starts its components in order (`ServerBuilder` made and listed them)
/// and stops them in reverse, each asked, then each joined. `run` (what `serve` does) waits for
/// signals on the main thread between the two: SIGHUP reloads, SIGTERM and SIGINT stop
/// gracefully (stop accepting, finish responses in flight, exit 0). `start` and `stop` alone
/// run it in a process it does not own (the tests), without signals.
final class Server {
    /// In start order.
    let components: [any ServerComponent]
    /// What SIGHUP does: the reloader reads everything again.
    let reload: () -> Void
    /// SIGTERM, SIGINT and SIGHUP, blocked in every thread (`ServerBuilder`) for `sigwait`;
    /// nil for a server run by `start` and `stop` alone.
    let signals: sigset_t?
    let logger: Logger
    let report: StartupReport
    private let failures: Failures

    /// The failures of parts whose policy stops the server, and how the main thread hears of
    /// them: SIGTERM to this process, which wakes `run`'s sigwait as an operator's would.
    private final class Failures: Sendable {
        let reasons = Mutex<[String]>([])
        let wake: @Sendable () -> Void

        init(wake: @escaping @Sendable () -> Void) {
            self.wake = wake
        }
    }

    init(
        components: [any ServerComponent], reload: @escaping () -> Void, signals: sigset_t?, logger: Logger,
        report: StartupReport
    ) {
        self.components = components
        self.reload = reload
        self.signals = signals
        self.logger = logger
        self.report = report
        let wakesMain = signals != nil
        failures = Failures(wake: {
            if wakesMain { try? Posix.send(signal: SIGTERM, to: Posix.processID()) }
        })
    }

    /// The failures that stop the server, so far ("PART: reason").
    var failed: [String] { failures.reasons.withLock { $0 } }

    /// Runs until SIGTERM or SIGINT (exit code 0), or until a part whose policy stops the server
    /// fails, or one cannot start (1).
    func run() -> Int32 {
        do {
            try start()
        } catch {
            report.notStarting("\(error)")
            return 1
        }
        let received = waitForStop()
        let failed = failed
        if failed.isEmpty {
            logger.info(
                "stopping: finishing responses in flight",
                metadata: ["signal": "\(received == SIGTERM ? "SIGTERM" : "SIGINT")"])
        } else {
            logger.critical("stopping: \(failed.joined(separator: "; "))")
        }
        return stop()
    }

    /// Connects each part's failures to its policy, then starts the parts in order; when one
    /// cannot start, those started before it are stopped and joined, and the error rethrown.
    func start() throws {
        for component in components {
            let (name, policy, logger, failures) = (component.name, component.policy, logger, failures)
            component.failures.connect { reason in
                switch policy {
                case .stopServer:
                    failures.reasons.withLock { $0.append("\(name) failed: \(reason)") }
                    failures.wake()
                case .logAndContinue:
                    logger.error("\(name) stopped: \(reason); serving goes on without it")
                }
            }
        }
        do {
            try Self.start(components)
        } catch {
            for component in components { component.failures.disconnect() }
            throw error
        }
    }

    /// Stops every part and joins its threads; the exit status: 1 when a part whose policy
    /// stops the server failed, else 0.
    func stop() -> Int32 {
        Self.stop(components)
        for component in components { component.failures.disconnect() }
        logger.info("stopped")
        return failed.isEmpty ? 0 : 1
    }

    /// Reloads on SIGHUP until SIGTERM or SIGINT, which it returns.
    private func waitForStop() -> Int32 {
        guard let signals else { return SIGTERM }
        while true {
            let received: Int32
            do {
                received = try Posix.waitForSignal(in: signals)
            } catch {
                // sigwait fails only for an invalid set (EINVAL): stop rather than spin.
                logger.critical("\(error)")
                return SIGTERM
            }
            guard received == SIGHUP else { return received }
            reload()
        }
    }

    /// Starts `components` in order; when one cannot start, stops those started before it and
    /// rethrows.
    static func start(_ components: [any ServerComponent]) throws {
        for (index, component) in components.enumerated() {
            do {
                try component.start()
            } catch {
                stop(Array(components[..<index]))
                throw error
            }
        }
    }

    /// Stops `components` in reverse order of start: each is asked, then each is joined.
    static func stop(_ components: [any ServerComponent]) {
        for component in components.reversed() { component.stop() }
        for component in components.reversed() { component.waitUntilStopped() }
    }
}
