import Foundation
@preconcurrency import Glibc

/// Interrupts a thread's blocking system calls with SIGUSR1, whose handler does nothing and
/// has no SA_RESTART, so the call fails with EINTR (signal(7), "Interruption of system calls"):
/// for tests that an interrupted wait is no timeout and no error.
enum Interrupter {
    /// Installs the handler (the same every time, so tests may run in parallel).
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        sigaction(SIGUSR1, &action, nil)
    }

    /// Run on the thread to interrupt: unblocks SIGUSR1 there (the test process's threads start
    /// with it blocked) and returns the thread.
    static func prepareCurrentThread() -> pthread_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        return pthread_self()
    }

    /// Signals the thread `target()` names, every millisecond while `going()` holds, for at
    /// most `seconds`.
    static func signal(for seconds: Double, target: () -> pthread_t?, while going: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while going() && Date() < deadline {
            if let thread = target() { pthread_kill(thread, SIGUSR1) }
            usleep(1_000)  // the polling interval, as `eventually` in CommandLineTests
        }
    }
}
