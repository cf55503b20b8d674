import Foundation
import TestSupport
import Testing

@testable import AASAStore

/// `StoreTable` against PostgreSQL: two `PostgresStore`s (two replicas' connections) over one
/// fresh database of a shared throwaway cluster.
@Suite("Store table: PostgreSQL", .enabled(if: PostgresCluster.isInstalled, "PostgreSQL is not installed"))
struct PostgresStoreTable {
    /// One cluster for the suites that do not stop it; it ends with the test process.
    static let shared = Result { try PostgresCluster() }

    static func pair() throws -> StorePair {
        let cluster = try shared.get()
        let database = try cluster.makeDatabase()
        let uri = cluster.uri(database)
        return StorePair(
            first: try openStore(.postgres(uri), keyFile: nil), second: try openStore(.postgres(uri), keyFile: nil),
            kill: { lock in
                // The holder's backend ended, as when its replica dies.
                try cluster.psql(
                    """
                    SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                    WHERE l.locktype = 'advisory' AND a.datname = '\(database)'
                    """)
            }, keep: [cluster])
    }

    @Test("load, store, delete, stat") func roundTrip() throws { try StoreTable.roundTrip(Self.pair()) }
    @Test("list by prefix") func listing() throws { try StoreTable.listing(Self.pair()) }
    @Test("storeAll") func storeAll() throws { try StoreTable.storeAll(Self.pair()) }
    @Test("locks exclude each other across stores") func locks() throws { try StoreTable.locks(Self.pair()) }
    @Test("a dead holder's lock is free") func deadHolder() throws { try StoreTable.deadHolder(Self.pair()) }
    @Test("hostile lock names are refused") func hostileLockNames() throws {
        try StoreTable.hostileLockNames(Self.pair())
    }
}
