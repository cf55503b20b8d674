import AASASystem
import Foundation
@preconcurrency import Glibc
import Synchronization

/// The thread that LISTENs on `aasa_store` with a connection of its own and calls the
/// handlers with each key written or deleted by any replica (the entries' trigger notifies
/// at commit). When the connection goes, it is made again with a backoff (0.2 s doubling to
/// 5 s), and the keys written meanwhile (by their `modified` time, with a margin for commits
/// in flight) are handed over as changes, so a replica cut off for a while catches up;
/// deletions in that time are not. Every 5 s of quiet it asks the server's clock, which both
/// checks the connection and moves the catch-up mark. It also keeps `health` current while
/// no call is made.
final class PostgresListener: Sendable {
    private let uri: String
    private let health: StoreHealth
    private let handlers = Mutex<[@Sendable (StoreKey) -> Void]>([])
    private let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    /// A pipe whose write end wakes the thread to stop.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let threads = ThreadSet()
    /// Milliseconds of quiet before the thread asks the server's clock.
    private let quiet: Int32

    static let channel = "aasa_store"
    static let quiet: Int32 = 5000

    init(uri: String, health: StoreHealth, quiet: Int32 = PostgresListener.quiet) {
        self.uri = uri
        self.health = health
        self.quiet = quiet
        // Without the pipe (descriptors exhausted) stop's wake-up is lost and the thread ends at
        // its next quiet wait instead.
        let ends = (try? Posix.pipe()) ?? (read: -1, write: -1)
        wakeRead = ends.read
        wakeWrite = ends.write
    }

    deinit {
        if wakeRead >= 0 { Posix.close(wakeRead) }
        if wakeWrite >= 0 { Posix.close(wakeWrite) }
    }

    func add(_ handler: @escaping @Sendable (StoreKey) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    /// Starts the thread; one that cannot be made (the thread limit) leaves the store without
    /// change notices, as a listener that cannot connect does, and `health` counts it.
    func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        do {
            try threads.start("aasa-store-lsn") { [self] in run() }
        } catch {
            health.recordError(.listen)
        }
    }

    /// Asks the thread to stop and joins it (a few seconds at most: a connect under way
    /// finishes first, bounded by its timeout).
    func stop() {
        guard started.load(ordering: .relaxed), !stopping.exchange(true, ordering: .relaxed) else { return }
        var byte: UInt8 = 1
        _ = withUnsafeBytes(of: &byte) { try? Posix.write(wakeWrite, $0) }
        threads.join()
    }

    private func run() {
        var connection: PostgresConnection?
        var delay = 0.2
        var mark: String?
        while !stopping.load(ordering: .relaxed) {
            guard let listening = connection else {
                do throws(StoreError) {
                    connection = try listen(since: &mark)
                    delay = 0.2
                    health.recordUp(true)
                } catch {
                    health.recordError(.listen)
                    if case .unreachable = error { health.recordUp(false) }
                    wait(socket: nil, milliseconds: Int32(delay * 1000))
                    delay = min(delay * 2, PostgresStore.longestDelay)
                }
                continue
            }
            let readable = wait(socket: listening.socket, milliseconds: quiet)
            do throws(StoreError) {
                if readable {
                    try drain(listening)
                } else {
                    mark = try Self.serverMark(listening)
                    try drain(listening)
                }
            } catch {
                health.recordError(.listen)
                health.recordUp(false)
                connection = nil
            }
        }
    }

    /// A connection that LISTENs, after handing over the keys written since `mark`.
    /// Notifications that come while a statement runs are read off the socket by libpq and
    /// queued (libpq's documentation, "Asynchronous Notification"): poll(2) would not see
    /// them, so they are drained after every statement on this connection.
    private func listen(since mark: inout String?) throws(StoreError) -> PostgresConnection {
        // Its statements (LISTEN, the clock every 5 s of quiet) are not counted in `queries`,
        // which measures what the operations cost.
        let connection = try PostgresConnection.connect(uri)
        _ = try connection.execute("LISTEN \(Self.channel)")
        try drain(connection)
        // Taken after LISTEN, less the margin: a write committed from here on is notified, one
        // committed before is at least as old as the mark and found by the next catch-up.
        let now = try Self.serverMark(connection)
        try drain(connection)
        if let since = mark {
            let changed = try connection.execute(
                "SELECT key FROM aasa_store_entries WHERE modified >= $1::text::timestamptz", [Array(since.utf8)])
            for row in 0..<changed.rowCount {
                if let key = changed.text(row, 0).flatMap(StoreKey.init) { deliver(key) }
            }
            try drain(connection)
        }
        mark = now
        return connection
    }

    /// Hands over the notifications read so far (from the socket and libpq's queue); throws
    /// when the connection is gone.
    private func drain(_ connection: PostgresConnection) throws(StoreError) {
        for (channel, payload) in try connection.notifications() where channel == Self.channel {
            if let key = StoreKey(payload) { deliver(key) }
        }
        if connection.isBroken { throw StoreError.unreachable(connection.errorMessage) }
    }

    /// The server's clock less a margin for writes not yet committed (their `modified` is
    /// taken before their commit).
    private static func serverMark(_ connection: PostgresConnection) throws(StoreError) -> String {
        let result = try connection.execute("SELECT (clock_timestamp() - interval '10 seconds')::text")
        return result.text(0, 0) ?? "-infinity"
    }

    private func deliver(_ key: StoreKey) {
        for handler in handlers.withLock({ $0 }) { handler(key) }
    }

    /// poll(2) on `socket` (none: only the wake pipe) for up to `milliseconds`; true when the
    /// socket has something to read.
    @discardableResult
    private func wait(socket: Int32?, milliseconds: Int32) -> Bool {
        var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        if let socket { descriptors.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
        let count = Posix.poll(&descriptors, milliseconds: milliseconds)
        guard count > 0, let last = descriptors.last, socket != nil else { return false }
        return last.revents != 0
    }
}
