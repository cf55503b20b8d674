import Foundation
import TestSupport
import Testing

@testable import AASAStore

/// `StoreTable` against the folder engine: two `FolderStore`s over one folder.
@Suite("Store table: folder")
struct FolderStoreTable {
    static func pair() throws -> StorePair {
        let temporary = try TemporaryFolder("store-table")
        let folder = temporary.path("acme")
        return StorePair(
            first: try openStore(.folder(folder), keyFile: nil), second: try openStore(.folder(folder), keyFile: nil),
            kill: { $0.releaseHold() }, keep: [temporary])
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
