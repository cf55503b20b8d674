import Foundation
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The threads one owner starts and joins (pthread_create(3), pthread_join(3)): the event
/// loops, the workers of ACME, of the on-demand ask and of the cache watches, the reloader's
/// timer, a store's listener. Nothing in the server starts a thread any other way, so a part
/// that is stopped and joined has no thread left (docs/ARCHITECTURE.md, "Threads"). Each
/// thread is named (the first 15 bytes: pthread_setname_np(3)), so /proc/PID/task, `top -H`
/// and a leak found by a test say whose it is.
package final class ThreadSet: Sendable {
    /// A started thread and whether its body returned (it is then joined without waiting
    /// long, when the next thread starts).
    private struct Started: @unchecked Sendable {
        let thread: pthread_t
        let start: ThreadStart
    }

    private let started = Mutex<[Started]>([])

    package init() {}

    /// Threads started and not joined yet.
    package var count: Int { started.withLock { $0.count } }

    /// Starts a thread named `name` that runs `body`; the signal mask is the caller's
    /// (pthread_create(3)), so the stop and reload signals stay blocked in it. Threads of
    /// earlier starts whose bodies returned are joined first, so an owner that starts and
    /// stops its workers again and again (the cache watches) holds no finished threads.
    package func start(_ name: String, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        reapFinished()
        let start = ThreadStart(name: name, body: body)
        let argument = Unmanaged.passRetained(start).toOpaque()
        #if canImport(Glibc)
            var thread = pthread_t()
        #else
            var thread: pthread_t?
        #endif
        let code = pthread_create(&thread, nil, threadMain, argument)
        guard code == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(argument).release()
            throw SystemError("pthread_create", errno: code)
        }
        #if canImport(Glibc)
            let made = thread
        #else
            guard let made = thread else { return }
        #endif
        started.withLock { $0.append(Started(thread: made, start: start)) }
    }

    /// Waits until every thread started so far has returned (pthread_join(3)), those started
    /// while it waits included. Called by the owner after it asked its threads to stop.
    package func join() {
        while let next = started.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            pthread_join(next.thread, nil)
        }
    }

    /// Joins the threads whose bodies returned (their exit is a moment away).
    private func reapFinished() {
        let finished = started.withLock { threads -> [Started] in
            var finished: [Started] = []
            var running: [Started] = []
            for thread in threads {
                if thread.start.done.load(ordering: .acquiring) {
                    finished.append(thread)
                } else {
                    running.append(thread)
                }
            }
            threads = running
            return finished
        }
        for thread in finished { pthread_join(thread.thread, nil) }
    }
}

/// What a new thread runs: its name and body, handed over through pthread_create's argument.
private final class ThreadStart: Sendable {
    let name: String
    let body: @Sendable () -> Void
    let done = Atomic<Bool>(false)

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    func run() {
        // The kernel keeps 15 bytes of a thread's name; a longer one would be refused (ERANGE).
        let name = String(decoding: Array(self.name.utf8.prefix(15)), as: UTF8.self)
        // Foundation names the current thread with pthread_setname_np(3).
        Thread.current.name = name
        body()
        done.store(true, ordering: .releasing)
    }
}

/// A new thread's entry: takes its `ThreadStart` and runs it.
#if canImport(Glibc)
    private func threadMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let argument else { return nil }
        Unmanaged<ThreadStart>.fromOpaque(argument).takeRetainedValue().run()
        return nil
    }
#else
    private func threadMain(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        Unmanaged<ThreadStart>.fromOpaque(argument).takeRetainedValue().run()
        return nil
    }
#endif
