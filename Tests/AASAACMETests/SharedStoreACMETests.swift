import AASAStore
import Foundation
import TestSupport
import Testing

@testable import AASAACME

/// What the replicas' ACME keeps in the store, with two stores standing for two replicas
/// (docs/acme.md, "Several replicas"): a challenge posted by one is found by the other, the
/// lock per name is held by one at a time and freed when its holder goes. Against both engines.
@Suite("ACME's shared keys in both stores", .serialized)
struct SharedStoreACMETests {
    static let token = String(repeating: "b", count: 43)

    static func check(_ first: any SharedStore, _ second: any SharedStore) throws {
        let posting = StoreChallenges(store: first)
        let finding = StoreChallenges(store: second)
        try posting.post(.http(token: Self.token), name: "a.example.com", keyAuthorization: "\(Self.token).thumb")
        try posting.post(.tls(name: "a.example.com"), name: "a.example.com", keyAuthorization: "k.thumb")
        #expect(try finding.find(.http(token: Self.token))?.keyAuthorization == "\(Self.token).thumb")
        #expect(try finding.find(.http(token: Self.token))?.name == "a.example.com")
        #expect(try finding.find(.tls(name: "a.example.com"))?.keyAuthorization == "k.thumb")
        posting.remove(.http(token: Self.token))
        #expect(try finding.find(.http(token: Self.token)) == nil)

        let lock = try #require(try first.tryLock("a.example.com"))
        #expect(try second.tryLock("a.example.com") == nil)
        first.unlock(lock)
        let taken = try #require(try second.tryLock("a.example.com"))
        second.unlock(taken)

        let backoff = SharedBackoff(until: 100, failures: 1, issuerIndex: 0, problem: "connection refused")
        let key = try #require(ACMEManager.backoffKey("a.example.com"))
        try first.store(key, Array(backoff.text.utf8))
        #expect(try second.load(key).flatMap(SharedBackoff.init(bytes:)) == backoff)
    }

    @Test("the folder: two stores on one folder")
    func folder() throws {
        let folder = try TemporaryFolder()
        let first = FolderStore(folder: folder.path("acme"))
        let second = FolderStore(folder: folder.path("acme"))
        try Self.check(first, second)
    }

    @Test("PostgreSQL: two sessions; a lock goes with its holder's session", .enabled(if: PostgresCluster.isInstalled))
    func postgres() throws {
        let cluster = try PostgresCluster()
        let database = try cluster.makeDatabase()
        let first = try PostgresStore(uri: cluster.uri(database))
        let second = try PostgresStore(uri: cluster.uri(database))
        defer { second.close() }
        try Self.check(first, second)
        // Held by the object: kept alive past the close, which ends the session and its locks.
        let held = try #require(try first.tryLock("watches"))
        #expect(try second.tryLock("watches") == nil)
        first.close()
        #expect(try second.tryLock("watches") != nil)
        withExtendedLifetime(held) {}
    }
}
