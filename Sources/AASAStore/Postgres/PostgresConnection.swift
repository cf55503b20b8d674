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
    /// Counts the statements sent.
    private let health: StoreHealth?
    /// Scrubbed out of every message (`StoreLocation.scrubbed`).
    private let uri: String

    /// Seconds libpq waits for a server when neither the URI nor PGCONNECT_TIMEOUT says:
    /// a store away must fail a call, not hang it.
    static let defaultConnectTimeout = "5"

    private init(_ connection: OpaquePointer, health: StoreHealth?, uri: String) {
        self.connection = connection
        self.health = health
        self.uri = uri
    }

    deinit {
        PQfinish(connection)
    }

    /// Connects with the URI exactly as given (expanded by libpq, so its parameters, the
    /// passfile and libpq's environment apply); `connect_timeout` and `application_name` are
    /// defaults placed before it, which the URI and the environment override.
    static func connect(_ uri: String, health: StoreHealth? = nil) throws(StoreError) -> PostgresConnection {
        var keywords = ["application_name", "dbname"]
        var values = ["aasa-server", uri]
        if ProcessInfo.processInfo.environment["PGCONNECT_TIMEOUT"] == nil {
            keywords.insert("connect_timeout", at: 0)
            values.insert(defaultConnectTimeout, at: 0)
        }
        let made = withCStrings(keywords) { keywordPointers in
            withCStrings(values) { valuePointers in
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

    var isBroken: Bool { PQstatus(connection) != CONNECTION_OK }

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
        let wrapped = inUse.withLock { _ in
            PostgresResult(
                PQexecParams(
                    connection, sql, Int32(parameters.count), nil, pointers, lengths, formats, binaryResults ? 1 : 0))
        }
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
        let wrapped = inUse.withLock { _ in PostgresResult(PQexec(connection, sql)) }
        // PQexec returns the last statement's result; an earlier failure stops there.
        guard wrapped.status == PGRES_COMMAND_OK || wrapped.status == PGRES_TUPLES_OK else {
            throw failure(wrapped)
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
