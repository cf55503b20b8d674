import AASAStore
import AASASystem
import Foundation
@preconcurrency import Glibc
import Logging
import Synchronization

/// Runs the CDN and Google watches in one replica at a time (docs/acme.md, "Several replicas,
/// one store"): every `followInterval` each replica tries the store's lock `watches`; the one
/// that gets it starts the watches and writes their latest results to the store
/// (`watches/NAME/results`); the others read them, so every replica shows them. The lock
/// goes with its holder (killed, or its store session lost: PostgreSQL's advisory lock), and
/// another replica takes the watches over at its next try. A replica that can no longer reach
/// the store stops its watches, since another may take them. `waitUntilStopped` joins its
/// thread and the watches' (`CacheWatcher.waitUntilStopped`).
final class WatchLeader: Sendable, ServerComponent {
    struct Books {
        var lock: StoreLock?
        var published: [String: String] = [:]
        var stopping = false
    }

    let name = "aasa-leader"
    /// Another replica may run the watches; serving never depends on them.
    let policy = FailurePolicy.logAndContinue
    let failures = FailureReport()
    private let threads = ThreadSet()
    let store: any SharedStore
    let watchers: [CacheWatcher]
    let logger: Logger
    /// Seconds between the leader's checks of its lock and shares of the results.
    static let interval = 2.0
    /// Seconds between the others' tries of the lock and reads of the results: each try of a
    /// PostgreSQL lock is a session of its own, so many replicas must not try too often.
    static let followInterval = 5.0
    private let books = Mutex(Books())
    private let signal = WorkerSignal()

    init(store: any SharedStore, watchers: [CacheWatcher], logger: Logger) {
        self.store = store
        self.watchers = watchers
        self.logger = logger
    }

    /// Whether this replica runs the watches now (the status page says so).
    var isLeading: Bool { books.withLock { $0.lock != nil } }

    func start() throws {
        try threads.start(name) { [self] in
            while !books.withLock({ $0.stopping }) {
                tick()
                let next = Date().addingTimeInterval(isLeading ? Self.interval : Self.followInterval)
                _ = signal.next { () -> WorkerSignal.Step<Bool> in
                    if books.withLock({ $0.stopping }) { return .stop }
                    let left = next.timeIntervalSinceNow
                    return left <= 0 ? .take(true) : .wait(left)
                }
            }
            stepDown(reason: nil)
        }
    }

    func stop() {
        books.withLock { $0.stopping = true }
        signal.wake()
    }

    /// One look: lead (try the lock, or share the results), or follow (read them).
    private func tick() {
        let held = books.withLock { $0.lock }
        if let held {
            guard store.holds(held), store.health.isUp else {
                return stepDown(reason: "the store is out of reach or its session ended")
            }
            share()
            return
        }
        let lock: StoreLock?
        do { lock = try store.tryLock("watches") } catch {
            logger.warning("watches: cannot ask the store who runs them: \(error)")
            return
        }
        guard let lock else { return follow() }
        books.withLock { $0.lock = lock }
        logger.info(
            "watches: this replica runs them",
            metadata: ["watches": "\(watchers.map(\.source.name).joined(separator: ","))"])
        for watcher in watchers {
            watcher.placement.store(1, ordering: .relaxed)
            do { try watcher.start() } catch {
                logger.warning("watches: cannot start the \(watcher.source.name) watch here: \(error)")
            }
        }
    }

    private func stepDown(reason: String?) {
        guard
            let lock = books.withLock({ books in
                defer { books.lock = nil }
                return books.lock
            })
        else { return }
        for watcher in watchers {
            watcher.stop()
            watcher.placement.store(2, ordering: .relaxed)
        }
        store.unlock(lock)
        if let reason { logger.warning("watches: stopped here: \(reason); another replica may take them") }
    }

    private func share() {
        for watcher in watchers {
            let text = watcher.sharedResults()
            guard books.withLock({ $0.published[watcher.source.name] }) != text,
                let key = StoreKey("watches/\(watcher.source.name)/results")
            else { continue }
            do {
                try store.store(key, Array(text.utf8))
                books.withLock { $0.published[watcher.source.name] = text }
            } catch {
                logger.warning("watches: cannot share the \(watcher.source.name) results: \(error)")
            }
        }
    }

    private func follow() {
        for watcher in watchers {
            watcher.placement.store(2, ordering: .relaxed)
            guard let key = StoreKey("watches/\(watcher.source.name)/results"),
                let bytes = try? store.load(key)
            else { continue }
            watcher.adopt(sharedResults: String(decoding: bytes, as: UTF8.self))
        }
    }

    func waitUntilStopped() {
        threads.join()
        for watcher in watchers { watcher.waitUntilStopped() }
    }
}
