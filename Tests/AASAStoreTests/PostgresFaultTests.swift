import Foundation
@preconcurrency import Glibc
import Synchronization
import TestSupport
import Testing

@testable import AASAStore

/// The PostgreSQL engine when things go wrong: a notification during the listener's own
/// statement, a server that stops answering, a URI or a migration that cannot work.
@Suite("PostgreSQL store: faults", .enabled(if: PostgresCluster.isInstalled, "PostgreSQL is not installed"))
struct PostgresFaultTests {
    @Test("a change committed while the listener runs its own statement is delivered at once")
    func notificationDuringStatement() throws {
        let (cluster, database) = try PostgresStoreTests.fresh()
        let writer = try PostgresStore(uri: cluster.uri(database))
        // No quiet at all: the listener asks the server's clock over and over, so most writes
        // commit while that statement runs and libpq queues their notifications.
        let reader = try PostgresStore(uri: cluster.uri(database), cipher: nil, quiet: 0)
        defer {
            writer.close()
            reader.close()
        }
        let seen = Mutex<Set<String>>([])
        reader.observeChanges { key in _ = seen.withLock { $0.insert(key.text) } }
        let first = try PostgresStoreTests.key("first")
        #expect(
            eventually(5) {
                try? writer.store(first, [1])
                return seen.withLock { $0.contains(first.text) }
            })
        // One write at a time, each awaited: a queued notification waits for the next write,
        // which does not come until it is delivered.
        for index in 0..<40 {
            let key = try PostgresStoreTests.key("k\(index)")
            try writer.store(key, [UInt8(index)])
            guard eventually(5, { seen.withLock { $0.contains(key.text) } }) else {
                Issue.record("k\(index) not delivered")
                break
            }
        }
    }

    @Test("a server that stops answering mid-session makes a call unreachable within 20 s, not a hang")
    func stalledServer() throws {
        let (cluster, database) = try PostgresStoreTests.fresh()
        let proxy = try StallingProxy(to: cluster.port)
        defer { proxy.stop() }
        let uri = "postgresql://postgres:\(cluster.password)@127.0.0.1:\(proxy.port)/\(database)?connect_timeout=3"
        // A long quiet, so the listener waits in poll(2) and stops at once at the end.
        let store = try PostgresStore(uri: uri, cipher: nil, quiet: 600_000)
        defer { store.close() }
        let key = try PostgresStoreTests.key("k")
        try store.store(key, [1])
        proxy.stall()
        let start = Date()
        #expect {
            try store.load(key)
        } throws: { error in
            if case .unreachable = error as? StoreError { return true }
            return false
        }
        let elapsed = Date().timeIntervalSince(start)
        print("stalled call failed after \(Int(elapsed * 1000)) ms")
        #expect(elapsed < 20)
        #expect(!store.health.isUp)
    }

    @Test("a malformed URI is refused at start, without its password")
    func malformedURI() throws {
        let (cluster, _) = try PostgresStoreTests.fresh()
        #expect {
            try PostgresStore(uri: "postgresql://postgres:SE%zzCRET@127.0.0.1:\(cluster.port)/d")
        } throws: { error in
            guard case .refused(let text) = error as? StoreError else { return false }
            return text.contains("percent-encoded") && !text.contains("SE%zzCRET")
        }
        #expect {
            try PostgresStore(uri: "postgresql://u@h/d?no_such_parameter=1")
        } throws: { error in
            guard case .refused(let text) = error as? StoreError else { return false }
            return text.contains("no_such_parameter")
        }
    }

    @Test("a migration that fails (no right to create the tables) is refused at start")
    func failingMigration() throws {
        let (cluster, database) = try PostgresStoreTests.fresh()
        let role = "limited\(UInt32.random(in: .min ... .max))"
        // PostgreSQL 15 and later give PUBLIC no CREATE on schema public; older ones did.
        try cluster.psql("CREATE ROLE \(role) LOGIN PASSWORD 'pw'")
        try cluster.psql("REVOKE CREATE ON SCHEMA public FROM PUBLIC", database: database)
        #expect {
            try PostgresStore(uri: "postgresql://\(role):pw@127.0.0.1:\(cluster.port)/\(database)?connect_timeout=3")
        } throws: { error in
            guard case .refused(let text) = error as? StoreError else { return false }
            return text.contains("permission denied")
        }
    }

    @Test("each statement is bounded (statement_timeout, keepalives); the URI overrides the defaults")
    func connectionDefaults() throws {
        let (cluster, database) = try PostgresStoreTests.fresh()
        let plain = try PostgresConnection.connect(cluster.uri(database))
        #expect(try plain.execute("SHOW statement_timeout").text(0, 0) == "10s")
        #expect(Self.option(plain.socket, SOL_SOCKET, SO_KEEPALIVE) == 1)
        #expect(Self.option(plain.socket, Int32(IPPROTO_TCP), TCP_KEEPIDLE) == 5)
        #expect(Self.option(plain.socket, Int32(IPPROTO_TCP), TCP_KEEPCNT) == 3)
        #expect(Self.option(plain.socket, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT) == 10000)
        let parameters = "connect_timeout=3&keepalives_idle=7&options=-c%20statement_timeout%3D3s"
        let custom = try PostgresConnection.connect(cluster.uri(database, parameters: parameters))
        #expect(try custom.execute("SHOW statement_timeout").text(0, 0) == "3s")
        #expect(Self.option(custom.socket, Int32(IPPROTO_TCP), TCP_KEEPIDLE) == 7)
        #expect(Self.option(custom.socket, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT) == 10000)
    }

    @Test(
        "a default with an environment variable of its own gives way to it",
        arguments: [
            ([:], true, true),
            (["PGCONNECT_TIMEOUT": "9"], false, true),
            (["PGOPTIONS": "-c statement_timeout=1s"], true, false),
        ])
    func defaultsAndEnvironment(environment: [String: String], connectTimeout: Bool, options: Bool) {
        let keywords = PostgresConnection.defaults(environment: environment).map(\.0)
        #expect(keywords.contains("connect_timeout") == connectTimeout)
        #expect(keywords.contains("options") == options)
        #expect(keywords.contains("keepalives") && keywords.contains("tcp_user_timeout"))
    }

    static func option(_ socket: Int32, _ level: Int32, _ name: Int32) -> Int32 {
        var value: Int32 = -1
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, level, name, &value, &length)
        return value
    }
}
