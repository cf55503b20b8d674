import Foundation
import TestSupport
import Testing

@testable import AASAStore

/// Two stores over one place (a folder, a database): two replicas. `kill` ends a lock's
/// holder as a crash would (the folder: its descriptor closed without unlock; PostgreSQL: the
/// holder's backend terminated).
struct StorePair {
    let first: any SharedStore
    let second: any SharedStore
    let kill: (StoreLock) throws -> Void
    /// What must live as long as the stores (a temporary folder, a cluster's database).
    let keep: [AnyObject]
}

/// The table every engine passes (docs/acme.md, "Several replicas, one store"): each case a
/// function of a `StorePair`, run by `FolderStoreTable` and `PostgresStoreTable`.
enum StoreTable {
    static func key(_ text: String) throws -> StoreKey { try #require(StoreKey(text)) }

    static func roundTrip(_ pair: StorePair) throws {
        let (a, b) = (pair.first, pair.second)
        let chain = try key("x.example.com/fullchain.pem")
        #expect(try a.load(chain) == nil)
        #expect(try a.stat(chain) == nil)
        try a.store(chain, Array("chain".utf8))
        #expect(try b.load(chain) == Array("chain".utf8))
        let info = try #require(try b.stat(chain))
        #expect(info.size == 5)
        #expect(abs(info.modified - Date().timeIntervalSince1970) < 120)
        try b.store(chain, Array("longer chain".utf8))
        #expect(try a.load(chain) == Array("longer chain".utf8))
        #expect(try a.stat(chain)?.size == 12)
        try a.delete(chain)
        #expect(try b.load(chain) == nil)
        try b.delete(chain)
        // Binary values come back byte for byte.
        let binary = try key("accounts/h-0123.key")
        let bytes = (0..<512).map { UInt8($0 % 256) }
        try a.store(binary, bytes)
        #expect(try b.load(binary) == bytes)
        try a.store(binary, [])
        #expect(try b.load(binary) == [])
    }

    static func listing(_ pair: StorePair) throws {
        let texts = [
            "x.example.com/fullchain.pem", "x.example.com/privkey.pem", "x.example.net/issuer",
            "challenges/http-01/t1", "challenges/http-01/t_2", "challenges/tls-alpn-01/x.example.com",
            "on-demand-names",
        ]
        for text in texts { try pair.first.store(key(text), [1]) }
        #expect(try pair.second.list(prefix: "").map(\.text) == texts.sorted())
        #expect(try pair.second.list(prefix: "x.example.c").map(\.text) == texts.filter { $0.hasPrefix("x.example.c") })
        #expect(
            try pair.second.list(prefix: "challenges/http-01/").map(\.text) == [
                "challenges/http-01/t1", "challenges/http-01/t_2",
            ])
        // `_` and `%` are no wildcards.
        #expect(try pair.second.list(prefix: "challenges/http-01/t_").map(\.text) == ["challenges/http-01/t_2"])
        #expect(try pair.second.list(prefix: "challenges/http-01/%").isEmpty)
        #expect(try pair.second.list(prefix: "nothing/").isEmpty)
        let loaded = try pair.second.loadAll(prefix: "challenges/http-01/")
        #expect(loaded.map(\.0.text) == ["challenges/http-01/t1", "challenges/http-01/t_2"])
        #expect(loaded.allSatisfy { $0.1 == [1] })
        #expect(try pair.second.list(prefix: "../").isEmpty)
    }

    static func storeAll(_ pair: StorePair) throws {
        let entries = try [
            ("c.example.com/privkey.pem", "k1"), ("c.example.com/fullchain.pem", "c1"),
            ("c.example.com/issuer", "i1"),
        ].map { (try key($0.0), Array($0.1.utf8)) }
        try pair.first.storeAll(entries)
        for (key, value) in entries { #expect(try pair.second.load(key) == value) }
        let renewed = entries.map { ($0.0, $0.1 + [UInt8(ascii: "2")]) }
        try pair.second.storeAll(renewed)
        for (key, value) in renewed { #expect(try pair.first.load(key) == value) }
        try pair.first.storeAll([])
    }

    static func locks(_ pair: StorePair) throws {
        let held = try #require(try pair.first.tryLock("x.example.com"))
        #expect(held.name == "x.example.com")
        #expect(try pair.second.tryLock("x.example.com") == nil)
        // Another lock of the same replica is excluded too (two workers).
        #expect(try pair.first.tryLock("x.example.com") == nil)
        let other = try #require(try pair.second.tryLock("y.example.com"))
        pair.first.unlock(held)
        #expect(!pair.first.holds(held))
        pair.first.unlock(held)
        let taken = try #require(try pair.second.tryLock("x.example.com"))
        #expect(try pair.first.tryLock("x.example.com") == nil)
        pair.second.unlock(taken)
        pair.second.unlock(other)
        #expect(try pair.first.tryLock("y.example.com") != nil)
    }

    static func deadHolder(_ pair: StorePair) throws {
        let held = try #require(try pair.first.tryLock("watches"))
        #expect(pair.first.holds(held))
        #expect(try pair.second.tryLock("watches") == nil)
        try pair.kill(held)
        #expect(!pair.first.holds(held))
        var taken: StoreLock?
        #expect(
            eventually(5) {
                taken = try? pair.second.tryLock("watches")
                return taken != nil
            })
        _ = taken
    }

    static func hostileLockNames(_ pair: StorePair) throws {
        for name in ["", "../x", ".x", "a/b", "a b", String(repeating: "a", count: 256)] {
            #expect(throws: StoreError.self, "\(name)") { try pair.first.tryLock(name) }
        }
    }
}
