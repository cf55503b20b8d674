import AASASystem
import Synchronization

/// The PostgreSQL engine (docs/acme.md, "Several replicas, one store"), through libpq: one
/// connection for the calls, held under a lock (callers are blocking threads of their own: ACME's
/// workers, a lookup thread; never an event loop), one for LISTEN on a thread of its own
/// (`PostgresListener`), and one per held lock, whose session holds a session advisory lock,
/// so a replica that dies releases its locks with its sessions. A connection that fails is
/// dropped and made again on the next call, at most once per backoff (0.2 s doubling to 5 s),
/// so a store away fails calls at once instead of making each wait for a timeout. Each
/// connection made runs the schema's migrations first (`PostgresSchema`).
public final class PostgresStore: SharedStore {
    public let summary: String
    public let health = StoreHealth()
    let uri: String
    let cipher: StoreCipher?
    private let main = Mutex(MainConnection())
    private let listener: PostgresListener
    private let locks = Mutex(HeldLocks())

    /// The calls' connection and when it may be tried again.
    struct MainConnection: ~Copyable {
        var connection: PostgresConnection?
        var retryAt: UInt64 = 0
        var delay: Double = 0.2
        var lastError = ""
    }

    /// The connections that hold locks, so `close` can end them.
    struct HeldLocks {
        var next = 0
        var connections: [Int: PostgresConnection] = [:]
    }

    static let longestDelay = 5.0

    /// Opens the store: checks the URI, connects and migrates the schema. A store that cannot
    /// be reached yet is no error (serving goes on; `health` says it is down and calls try
    /// again); anything else is refused, since it would not mend by itself: a URI libpq cannot
    /// parse, a schema newer than this server's, a migration that fails (a user without the
    /// right to create the tables).
    public convenience init(uri: String, cipher: StoreCipher? = nil) throws(StoreError) {
        try self.init(uri: uri, cipher: cipher, quiet: PostgresListener.quiet)
    }

    /// `quiet`: the listener's milliseconds of quiet before it asks the server's clock (tests
    /// shorten it).
    init(uri: String, cipher: StoreCipher?, quiet: Int32) throws(StoreError) {
        if let malformation = PostgresConnection.malformation(of: uri) {
            throw StoreError.refused("invalid PostgreSQL URI: \(malformation)")
        }
        self.uri = uri
        self.cipher = cipher
        summary = StoreLocation.postgres(uri).description
        listener = PostgresListener(uri: uri, health: health, quiet: quiet)
        do throws(StoreError) {
            _ = try run(.connect) { _ throws(StoreError) in () }
        } catch {
            guard case .unreachable = error else { throw StoreError.refused(error.detail) }
        }
        listener.start()
    }

    /// Runs `body` on the calls' connection, connecting first when there is none (at most once
    /// per backoff); a connection found broken by `body` is made again at once and `body`
    /// tried once more (every call is idempotent), so a restarted server costs no failure.
    func run<Result: Sendable>(
        _ operation: StoreOperation, _ body: (PostgresConnection) throws(StoreError) -> Result
    ) throws(StoreError) -> Result {
        do throws(StoreError) {
            let result = try main.withLock { state throws(StoreError) -> Result in
                let (connection, fresh) = try Self.connection(&state, uri: uri, health: health)
                do throws(StoreError) {
                    return try body(connection)
                } catch {
                    guard case .unreachable = error else { throw error }
                    state.connection = nil
                    // A statement that got no answer is not sent again: that would double the wait.
                    guard !fresh, !connection.timedOut else {
                        Self.failed(&state, error)
                        throw error
                    }
                    let (again, _) = try Self.connection(&state, uri: uri, health: health)
                    return try body(again)
                }
            }
            health.recordUp(true)
            return result
        } catch {
            health.recordError(operation)
            if case .unreachable = error { health.recordUp(false) }
            throw error
        }
    }

    /// The calls' connection, made (and migrated) when missing; `fresh` when just made.
    private static func connection(
        _ state: inout MainConnection, uri: String, health: StoreHealth
    ) throws(StoreError) -> (PostgresConnection, fresh: Bool) {
        if let connection = state.connection, !connection.isBroken { return (connection, false) }
        state.connection = nil
        guard MonotonicClock.now() >= state.retryAt else {
            throw StoreError.unreachable("trying again shortly; last: \(state.lastError)")
        }
        do throws(StoreError) {
            let connection = try PostgresConnection.connect(uri, health: health)
            try PostgresSchema.migrate(connection)
            state.connection = connection
            state.delay = 0.2
            state.retryAt = 0
            return (connection, true)
        } catch {
            failed(&state, error)
            throw error
        }
    }

    private static func failed(_ state: inout MainConnection, _ error: StoreError) {
        state.lastError = error.detail
        state.retryAt = MonotonicClock.now() + UInt64(state.delay * 1e9)
        state.delay = min(state.delay * 2, longestDelay)
    }

    public func tryLock(_ name: String) throws(StoreError) -> StoreLock? {
        do throws(StoreError) {
            guard StoreKey.isValidLockName(name) else {
                throw StoreError.refused("lock name \"\(name)\" is not allowed")
            }
            // While the calls' connection waits out its backoff the server is away: no attempt
            // (which could wait for the connect timeout) until the next try is due.
            let away = main.withLock { state in
                state.connection == nil && MonotonicClock.now() < state.retryAt ? state.lastError : nil
            }
            if let away { throw StoreError.unreachable("trying again shortly; last: \(away)") }
            // A session of its own: the lock lasts as long as it, and so no longer than the
            // replica that holds it.
            let connection = try PostgresConnection.connect(uri, health: health)
            let answer = try connection.execute("SELECT pg_try_advisory_lock(\(Self.lockID(name)))")
            health.recordUp(true)
            guard answer.text(0, 0) == "t" else { return nil }
            let id = locks.withLock { held in
                held.next += 1
                held.connections[held.next] = connection
                return held.next
            }
            return StoreLock(
                name: name,
                check: { [weak self] in
                    // The session still there (one round trip on the lock's own connection).
                    guard let held = self?.locks.withLock({ $0.connections[id] }) else { return false }
                    return (try? held.execute("SELECT 1")) != nil
                },
                release: { [weak self] in
                    _ = self?.locks.withLock { $0.connections.removeValue(forKey: id) }
                })
        } catch {
            health.recordError(.lock)
            if case .unreachable = error { health.recordUp(false) }
            throw error
        }
    }

    public func unlock(_ lock: StoreLock) {
        lock.releaseHold()
    }

    public func holds(_ lock: StoreLock) -> Bool {
        lock.stillHeld()
    }

    /// The advisory lock key of `name`: FNV-1a (64 bits) of a prefix and the name, so the
    /// server's locks keep apart from other users' of the database.
    static func lockID(_ name: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array("aasa-server lock \(name)".utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    public func observeChanges(_ handler: @escaping @Sendable (StoreKey) -> Void) {
        listener.add(handler)
    }

    public func close() {
        listener.stop()
        main.withLock { $0.connection = nil }
        locks.withLock { $0.connections.removeAll() }
    }

    deinit {
        listener.stop()
    }
}
