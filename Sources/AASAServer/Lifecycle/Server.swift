import AASASystem
@preconcurrency import Glibc
import Logging

/// The running server: starts its components in order (`ServerBuilder` made and listed them),
/// then waits for signals on the main thread: SIGHUP reloads, SIGTERM and SIGINT stop
/// gracefully (stop accepting, finish responses in flight, exit 0); then stops the
/// components in reverse order.
final class Server {
    /// In start order.
    let components: [any ServerComponent]
    let reloader: Reloader
    /// SIGTERM, SIGINT and SIGHUP, blocked in every thread (`ServerBuilder`) for `sigwait`.
    let signals: sigset_t
    let logger: Logger
    let report: StartupReport

    init(
        components: [any ServerComponent], reloader: Reloader, signals: sigset_t, logger: Logger,
        report: StartupReport
    ) {
        self.components = components
        self.reloader = reloader
        self.signals = signals
        self.logger = logger
        self.report = report
    }

    /// Runs until SIGTERM or SIGINT (exit code 0), or until an event loop fails or a component
    /// cannot start (1).
    func run() -> Int32 {
        do {
            try Self.start(components)
        } catch {
            report.notStarting("\(error)")
            return 1
        }
        let received = waitForStop()
        // A failed loop sends SIGTERM to wake this thread (LoopControl.onFailure).
        let failures = components.compactMap(\.failure)
        if failures.isEmpty {
            logger.info(
                "stopping: finishing responses in flight",
                metadata: ["signal": "\(received == SIGTERM ? "SIGTERM" : "SIGINT")"])
        } else {
            logger.critical("stopping: an event loop failed: \(failures.joined(separator: "; "))")
        }
        Self.stop(components)
        logger.info("stopped")
        return failures.isEmpty ? 0 : 1
    }

    /// Reloads on SIGHUP until SIGTERM or SIGINT, which it returns.
    private func waitForStop() -> Int32 {
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
            reloader.reload(reason: "SIGHUP")
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

    /// Stops `components` in reverse order of start: each is asked, then each is waited for.
    static func stop(_ components: [any ServerComponent]) {
        for component in components.reversed() { component.stop() }
        for component in components.reversed() { component.waitUntilStopped() }
    }
}
