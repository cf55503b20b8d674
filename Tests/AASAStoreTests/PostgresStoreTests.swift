import Foundation
@preconcurrency import Glibc
import Synchronization
import TestSupport
import Testing

@testable import AASAStore

/// What only the PostgreSQL engine does: notifications, the schema, encryption, a server
/// away and back.
@Suite("PostgreSQL store", .enabled(if: PostgresCluster.isInstalled, "PostgreSQL is not installed"))
struct PostgresStoreTests {
    static func key(_ text: String) throws -> StoreKey { try #require(StoreKey(text)) }

    static func fresh() throws -> (PostgresCluster, String) {
        let cluster = try PostgresStoreTable.shared.get()
        return (cluster, try cluster.makeDatabase())
    }

    @Test("a change by one replica reaches another's observer within 2 s, deletions too")
    func notifications() throws {
        let (cluster, database) = try Self.fresh()
        let a = try PostgresStore(uri: cluster.uri(database))
        let b = try PostgresStore(uri: cluster.uri(database))
        defer {
            a.close()
            b.close()
        }
        let seen = Mutex<[String]>([])
        b.observeChanges { key in seen.withLock { $0.append(key.text) } }
        // The listener LISTENs on its own thread: a first write may come before it does.
        let chain = try Self.key("x.example.com/fullchain.pem")
        #expect(
            eventually(5) {
                try? a.store(chain, [1])
                return seen.withLock { $0.contains(chain.text) }
            })
        seen.withLock { $0.removeAll() }
        let start = Date()
        try a.storeAll([(try Self.key("y.example.com/privkey.pem"), [1]), (try Self.key("y.example.com/issuer"), [2])])
        try a.delete(chain)
        // The promise (docs/acme.md, "Several replicas, one store") is 2 s; the test allows 5 s
        // because a loaded 2-core CI machine can starve the listener's thread for a while, and a
        // late but delivered change is not the failure this test looks for (the time is printed below).
        #expect(
            eventually(5) {
                seen.withLock { Set($0) } == ["y.example.com/privkey.pem", "y.example.com/issuer", chain.text]
            })
        print("notification after \(Int(Date().timeIntervalSince(start) * 1000)) ms")
    }

    @Test("the schema is created once at version 1; a newer one is refused")
    func schema() throws {
        let (cluster, database) = try Self.fresh()
        let stores = try (0..<3).map { _ in try PostgresStore(uri: cluster.uri(database)) }
        defer { for store in stores { store.close() } }
        #expect(try cluster.psql("SELECT version FROM aasa_store_version", database: database) == "1")
        try cluster.psql("UPDATE aasa_store_version SET version = 99", database: database)
        #expect {
            try PostgresStore(uri: cluster.uri(database))
        } throws: { error in
            "\(error)".contains("version 99")
        }
    }

    @Test("storeAll is one transaction: a failing row leaves none written")
    func storeAllAtomic() throws {
        let (cluster, database) = try Self.fresh()
        let store = try PostgresStore(uri: cluster.uri(database))
        defer { store.close() }
        try cluster.psql(
            """
            CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.key = 'n/boom' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$;
            CREATE TRIGGER boom BEFORE INSERT ON aasa_store_entries FOR EACH ROW EXECUTE FUNCTION boom();
            """, database: database)
        #expect(throws: StoreError.self) {
            try store.storeAll([(try Self.key("n/a"), [1]), (try Self.key("n/boom"), [2])])
        }
        #expect(try store.load(Self.key("n/a")) == nil)
        #expect(store.health.errors(.storeAll) == 1)
    }

    @Test("private keys are sealed with the store key; others are not; another key cannot open them")
    func encryption() throws {
        let (cluster, database) = try Self.fresh()
        let folder = try TemporaryFolder("store-key")
        let keyFile = try folder.write("key", String(repeating: "ab", count: 32) + "\n")
        let otherFile = try folder.write("other", String(repeating: "cd", count: 32))
        let store = try openStore(.postgres(cluster.uri(database)), keyFile: keyFile)
        defer { store.close() }
        let secret = Array("-----BEGIN PRIVATE KEY-----\nsecret\n".utf8)
        try store.store(Self.key("x/privkey.pem"), secret)
        try store.store(Self.key("x/fullchain.pem"), Array("chain".utf8))
        #expect(try store.load(Self.key("x/privkey.pem")) == secret)
        #expect(try store.stat(Self.key("x/privkey.pem"))?.size == secret.count)
        let raw = try cluster.psql(
            "SELECT encode(value, 'hex') FROM aasa_store_entries ORDER BY key", database: database)
        let rows = raw.split(separator: "\n")
        #expect(rows.count == 2 && rows[1].hasPrefix("00414531") && !rows[1].contains("736563726574"))
        #expect(rows[0] == "636861696e")
        let other = try openStore(.postgres(cluster.uri(database)), keyFile: otherFile)
        let none = try openStore(.postgres(cluster.uri(database)), keyFile: nil)
        defer {
            other.close()
            none.close()
        }
        #expect(throws: StoreError.self) { try other.load(Self.key("x/privkey.pem")) }
        #expect(throws: StoreError.self) { try none.load(Self.key("x/privkey.pem")) }
        #expect(try none.load(Self.key("x/fullchain.pem")) == Array("chain".utf8))
        // A sealed value moved to another key does not open.
        try cluster.psql(
            "INSERT INTO aasa_store_entries SELECT 'y/privkey.pem', value FROM aasa_store_entries WHERE key = 'x/privkey.pem'",
            database: database)
        #expect(throws: StoreError.self) { try store.load(Self.key("y/privkey.pem")) }
    }

    @Test(
        "key files: 32 bytes, hex or base64; anything else refused",
        arguments: [
            (String(repeating: "0", count: 64), true),
            (Data(repeating: 7, count: 32).base64EncodedString() + "\n", true),
            ("short", false), (String(repeating: "g", count: 64), false),
        ])
    func keyFiles(text: String, accepted: Bool) throws {
        let folder = try TemporaryFolder("store-key")
        let path = try folder.write("key", text)
        #expect(((try? StoreCipher(keyFile: path)) != nil) == accepted)
    }

    @Test("the password is in no summary and no error")
    func noPassword() throws {
        let (cluster, database) = try Self.fresh()
        let store = try PostgresStore(uri: cluster.uri(database))
        defer { store.close() }
        #expect(!store.summary.contains(cluster.password))
        #expect(store.summary == "postgres postgres@127.0.0.1:\(cluster.port)/\(database)")
        let wrong = "postgresql://postgres:not-\(cluster.password)@127.0.0.1:\(cluster.port)/\(database)"
        let refused = try PostgresStore(uri: wrong)
        defer { refused.close() }
        #expect {
            try refused.load(Self.key("x"))
        } throws: { error in
            guard case .unreachable(let text) = error as? StoreError else { return false }
            return !text.contains(cluster.password) && text.contains("password authentication failed")
        }
        #expect(!refused.health.isUp)
    }

    @Test("the URI's parameters are libpq's: a passfile gives the password, sslmode=require is kept")
    func libpqParameters() throws {
        let (cluster, database) = try Self.fresh()
        let folder = try TemporaryFolder("store-passfile")
        let passfile = try folder.write("pgpass", "127.0.0.1:\(cluster.port):*:postgres:\(cluster.password)\n")
        // libpq ignores a password file others can read (libpq's documentation, "The Password File").
        #expect(chmod(passfile, 0o600) == 0)
        let base = "postgresql://postgres@127.0.0.1:\(cluster.port)/\(database)"
        let withPassfile = try PostgresStore(uri: base + "?passfile=\(passfile)&connect_timeout=3")
        defer { withPassfile.close() }
        try withPassfile.store(Self.key("k"), [7])
        #expect(try withPassfile.load(Self.key("k")) == [7])
        // The throwaway cluster has no TLS: a URI that requires it is refused by libpq.
        let tls = try PostgresStore(uri: base + "?passfile=\(passfile)&sslmode=require&connect_timeout=3")
        defer { tls.close() }
        #expect {
            try tls.load(Self.key("k"))
        } throws: { error in
            "\(error)".contains("SSL")
        }
    }

    @Test("a server that never answers is unreachable within the connect timeout, not a hang")
    func unreachable() throws {
        // A socket that accepts the connection (the backlog does) and never speaks.
        let silent = try LoopbackSocket.listen()
        defer { close(silent.fd) }
        let start = Date()
        let store = try PostgresStore(uri: "postgresql://u:p@127.0.0.1:\(silent.port)/d?connect_timeout=1")
        defer { store.close() }
        #expect(!store.health.isUp)
        #expect {
            try store.load(Self.key("x"))
        } throws: { error in
            if case .unreachable = error as? StoreError { return true }
            return false
        }
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(store.health.errors(.connect) >= 1)
    }

    @Test("calls fail at once while the server is away and work again after it restarts; locks and notes too")
    func restart() throws {
        let cluster = try PostgresCluster()
        let database = try cluster.makeDatabase()
        let a = try PostgresStore(uri: cluster.uri(database))
        let b = try PostgresStore(uri: cluster.uri(database))
        defer {
            a.close()
            b.close()
        }
        let seen = Mutex<Set<String>>([])
        b.observeChanges { key in _ = seen.withLock { $0.insert(key.text) } }
        try a.store(Self.key("before"), [1])
        let held = try #require(try a.tryLock("n"))
        cluster.stop()
        #expect(throws: StoreError.self) { try a.load(Self.key("before")) }
        #expect(eventually(10) { !a.health.isUp && !b.health.isUp })
        // Away: each call fails fast (the backoff), none waits for a timeout.
        let start = Date()
        for _ in 0..<20 { _ = try? a.load(Self.key("before")) }
        #expect(Date().timeIntervalSince(start) < 5)
        try cluster.start()
        #expect(eventually(15) { (try? a.load(Self.key("before"))) == [1] })
        #expect(a.health.isUp)
        // The lock's session ended with the server: its holder learns it, the name is free again.
        #expect(!a.holds(held))
        #expect(eventually(5) { (try? b.tryLock("n")) != nil })
        // The listener is back: a write made now reaches b.
        #expect(
            eventually(15) {
                try? a.store(Self.key("after"), [2])
                return seen.withLock { $0.contains("after") }
            })
        #expect(b.health.isUp)
    }
}

/// What each operation costs in statements (`StoreHealth.queries`), once connected.
@Suite(
    "PostgreSQL store: queries per operation", .enabled(if: PostgresCluster.isInstalled, "PostgreSQL is not installed"))
struct PostgresQueryCountTests {
    @Test("one statement per operation; a lock one more connection; opening connects and migrates")
    func queriesPerOperation() throws {
        let (cluster, database) = try PostgresStoreTests.fresh()
        let store = try PostgresStore(uri: cluster.uri(database))
        defer { store.close() }
        // Connecting: the migration's BEGIN, lock, CREATE IF NOT EXISTS, version, migration,
        // UPDATE, COMMIT.
        #expect(store.health.queries == 7)
        let key = try PostgresStoreTests.key("x.example.com/fullchain.pem")
        let certificate = try ["privkey.pem", "fullchain.pem", "issuer"].map {
            (try PostgresStoreTests.key("y.example.com/" + $0), [UInt8](repeating: 1, count: 100))
        }
        let operations: [(String, () throws -> Void)] = [
            ("store", { try store.store(key, [1]) }),
            ("load", { _ = try store.load(key) }),
            ("stat", { _ = try store.stat(key) }),
            ("storeAll of 3", { try store.storeAll(certificate) }),
            ("list", { _ = try store.list(prefix: "") }),
            ("loadAll", { _ = try store.loadAll(prefix: "") }),
            ("delete", { try store.delete(key) }),
            ("tryLock", { _ = try store.tryLock("x.example.com") }),
        ]
        for (name, operation) in operations {
            let before = store.health.queries
            try operation()
            #expect(store.health.queries - before == 1, "\(name)")
        }
    }
}
