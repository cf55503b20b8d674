import AASASystem
import CLibPQ
import Foundation
import Synchronization

/// One libpq connection (PGconn). Blocking: used only on threads that may block (a store
/// caller, the listener thread, a lock's holder). A PGconn is not for two threads at once
/// (libpq's documentation, "Behavior in Threaded Programs"): each call takes `inUse`, so the
/// class is safe to share, hence unchecked.
final class PostgresConnection: @unchecked Sendable {
    private let connection: OpaquePointer
    private let inUse = Mutex(())
    /// Set when a statement got no answer in time: the connection is not used again.
    private let abandoned = Atomic<Bool>(false)
    /// Counts the statements sent.
    private let health: StoreHealth?
    /// Scrubbed out of every message (`StoreLocation.scrubbed`).
    private let uri: String

    /// Seconds libpq waits for a server when neither the URI nor PGCONNECT_TIMEOUT says:
    /// a store away must fail a call, not hang it.
    static let defaultConnectTimeout = "5"

    /// The server's own bound on a statement when neither the URI nor PGOPTIONS sets `options`.
    static let defaultOptions = "-c statement_timeout=10s"

    /// TCP keepalives and TCP_USER_TIMEOUT (libpq's documentation, "Parameter Key Words"): a
    /// server that vanishes without a reset (a host lost, a partition) is found out in about
    /// 11 s whether or not data is in flight, instead of the kernel's ~15 min of retransmits.
    static let defaultTCP = [
        ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
        ("tcp_user_timeout", "10000"),
    ]

    /// Seconds a statement may wait for its answer on this side: past the server's
    /// `statement_timeout` (whose error comes first when the server is there), so it fires only
    /// when the server is not, even where keepalives cannot tell (a peer that acknowledges and
    /// never answers). The connection is then abandoned.
    static let answerDeadline = 12.0

    private init(_ connection: OpaquePointer, health: StoreHealth?, uri: String) {
        self.connection = connection
        self.health = health
        self.uri = uri
    }

    deinit {
        PQfinish(connection)
    }

    /// The defaults placed before the URI, as (keyword, value): libpq processes the keywords
    /// in order and the last value of a keyword wins, the URI's (expanded from `dbname`) among
    /// them (libpq's documentation, PQconnectdbParams), so the URI overrides every one. A
    /// default with an environment variable of its own is left out when that is set, since an
    /// explicit keyword would override the environment.
    static func defaults(environment: [String: String]) -> [(String, String)] {
        var pairs = [("application_name", "aasa-server")] + defaultTCP
        if environment["PGCONNECT_TIMEOUT"] == nil { pairs.append(("connect_timeout", defaultConnectTimeout)) }
        if environment["PGOPTIONS"] == nil { pairs.append(("options", defaultOptions)) }
        return pairs
    }

    /// Nil when libpq can parse `uri` (PQconninfoParse); else its message without the URI's
    /// secrets.
    static func malformation(of uri: String) -> String? {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(uri, &message) else {
            defer { if let message { PQfreemem(message) } }
            let text = message.map { String(cString: $0) } ?? "out of memory"
            return StoreLocation.scrubbed(oneLine(text), uri: uri)
        }
        PQconninfoFree(options)
        return nil
    }

    /// Connects with the URI exactly as given (expanded by libpq, so its parameters, the
    /// passfile and libpq's environment apply), after `defaults`, which it overrides.
    static func connect(_ uri: String, health: StoreHealth? = nil) throws(StoreError) -> PostgresConnection {
        let pairs = defaults(environment: ProcessInfo.processInfo.environment) + [("dbname", uri)]
        let made = withCStrings(pairs.map(\.0)) { keywordPointers in
            withCStrings(pairs.map(\.1)) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let made else { throw StoreError.unreachable("libpq could not allocate a connection") }
        let connection = PostgresConnection(made, health: health, uri: uri)
        // libpq prints the server's notices to stderr by default; the store reports its own
        // failures, so they are dropped (PQsetNoticeProcessor(3)).
        _ = PQsetNoticeProcessor(made, { _, _ in }, nil)
        guard PQstatus(made) == CONNECTION_OK else {
            throw StoreError.unreachable(connection.errorMessage)
        }
        return connection
    }

    /// libpq's last message on this connection, on one line, without the URI's secrets.
    var errorMessage: String {
        let text = Self.oneLine(PQerrorMessage(connection).map { String(cString: $0) } ?? "unknown error")
        return StoreLocation.scrubbed(text, uri: uri)
    }

    var isBroken: Bool { abandoned.load(ordering: .relaxed) || PQstatus(connection) != CONNECTION_OK }

    /// A statement got no answer in time (`answerDeadline`).
    var timedOut: Bool { abandoned.load(ordering: .relaxed) }

    /// The socket libpq reads (for poll(2)).
    var socket: Int32 { PQsocket(connection) }

    /// The server process serving this session.
    var backendPID: Int32 { PQbackendPID(connection) }

    /// Runs one statement. `parameters` are sent as bytes (binary format, so a value needs no
    /// escaping; a text parameter is its UTF-8); results come back as text unless
    /// `binaryResults`. A failure says `unreachable` when the connection is gone or the server
    /// is shutting down, `io` otherwise.
    func execute(
        _ sql: String, _ parameters: [[UInt8]] = [], binaryResults: Bool = false
    ) throws(StoreError) -> PostgresResult {
        let lengths = parameters.map { Int32($0.count) }
        let formats = parameters.map { _ in Int32(1) }
        // Every parameter's bytes stay alive across the call.
        let buffers = parameters.map { bytes -> UnsafeMutablePointer<CChar> in
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBufferPointer { source in
                if let base = source.baseAddress {
                    buffer.update(from: UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), count: bytes.count)
                }
            }
            return buffer
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        let pointers: [UnsafePointer<CChar>?] = buffers.map { UnsafePointer($0) }
        health?.recordQuery()
        let sent = exchange { connection in
            PQsendQueryParams(
                connection, sql, Int32(parameters.count), nil, pointers, lengths, formats, binaryResults ? 1 : 0)
        }
        guard let wrapped = sent else { throw unanswered }
        switch wrapped.status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return wrapped
        default:
            throw failure(wrapped)
        }
    }

    /// Several statements in one round trip (the simple query protocol; no parameters).
    func executeScript(_ sql: String) throws(StoreError) {
        health?.recordQuery()
        guard let wrapped = exchange({ PQsendQuery($0, sql) }) else { throw unanswered }
        guard wrapped.status == PGRES_COMMAND_OK || wrapped.status == PGRES_TUPLES_OK else {
            throw failure(wrapped)
        }
    }

    private var unanswered: StoreError {
        StoreError.unreachable("no answer from the server within \(Int(Self.answerDeadline)) s")
    }

    /// Sends a statement with `send` (libpq's asynchronous calls) and waits for its results at
    /// most `answerDeadline`, as PQexec would otherwise wait for ever: the first failure or
    /// else the last result (what PQexec returns), or nil when the answer did not come in
    /// time, and then the connection, its statement still in flight, is abandoned.
    private func exchange(_ send: (OpaquePointer) -> Int32) -> PostgresResult? {
        inUse.withLock { _ -> PostgresResult? in
            guard send(connection) == 1 else { return PostgresResult(nil) }
            let deadline = MonotonicClock.now() + UInt64(Self.answerDeadline * 1e9)
            var kept: PostgresResult?
            while true {
                while PQisBusy(connection) == 1 {
                    let now = MonotonicClock.now()
                    guard now < deadline else {
                        abandoned.store(true, ordering: .relaxed)
                        return nil
                    }
                    var socket = [pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)]
                    Posix.poll(&socket, milliseconds: Int32(min((deadline - now) / 1_000_000 + 1, 60_000)))
                    // A lost connection: PQgetResult then returns its error at once.
                    if PQconsumeInput(connection) == 0 { break }
                }
                guard let next = PQgetResult(connection) else { break }
                let result = PostgresResult(next)
                if kept.map({ $0.status == PGRES_COMMAND_OK || $0.status == PGRES_TUPLES_OK }) ?? true {
                    kept = result
                }
            }
            return kept ?? PostgresResult(nil)
        }
    }

    /// Reads what the server sent without blocking, then the notifications it held:
    /// (channel, payload) pairs. Throws when the connection is gone.
    func notifications() throws(StoreError) -> [(channel: String, payload: String)] {
        let found = inUse.withLock { _ -> [(String, String)]? in
            guard PQconsumeInput(connection) == 1 else { return nil }
            var found: [(String, String)] = []
            while let notify = PQnotifies(connection) {
                found.append((String(cString: notify.pointee.relname), String(cString: notify.pointee.extra)))
                PQfreemem(notify)
            }
            return found
        }
        guard let found else { throw StoreError.unreachable(errorMessage) }
        return found
    }

    private func failure(_ result: PostgresResult) -> StoreError {
        let message =
            result.errorMessage.isEmpty ? errorMessage : StoreLocation.scrubbed(result.errorMessage, uri: uri)
        // SQLSTATE class 08 is a connection exception; 57P01-57P03 the server shutting down
        // or starting (PostgreSQL's documentation, Appendix A, "Error Codes").
        let state = result.sqlState
        if isBroken || state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state) {
            return StoreError.unreachable(message)
        }
        return StoreError.io(message)
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }

    /// C strings for `strings`, NULL-terminated as libpq's arrays are, alive during `body`.
    private static func withCStrings<Result>(
        _ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> Result
    ) -> Result {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        return body(copies.map { UnsafePointer($0) } + [nil])
    }
}
