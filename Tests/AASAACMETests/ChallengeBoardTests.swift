import AASAStore
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import AASAACME

/// Pending challenges another replica posted are looked up off the loop, bounded and cached
/// (docs/acme.md, "Several replicas").
@Suite("Challenge board")
struct ChallengeBoardTests {
    static let token = String(repeating: "a", count: 42) + "Z"

    @Test(
        "only well-formed tokens are looked up",
        arguments: [
            (String(repeating: "A", count: 43), true), (String(repeating: "-", count: 22), true),
            (String(repeating: "_", count: 64), true), (String(repeating: "a", count: 21), false),
            (String(repeating: "a", count: 65), false), (String(repeating: "a", count: 42) + "=", false),
            (String(repeating: "a", count: 42) + "/", false), (String(repeating: "a", count: 42) + ".", false),
            ("", false),
        ])
    func wellFormed(token: String, expected: Bool) {
        #expect(ChallengeKey.isWellFormed(token: token.utf8) == expected)
    }

    @Test("a token another replica posted: pending, the loops woken, then found; one store read for every check")
    func lookup() throws {
        let source = MemoryChallenges()
        try source.post(.http(token: Self.token), name: "a.example.com", keyAuthorization: "\(Self.token).thumb")
        let board = ChallengeBoard(source: source)
        let wakes = Atomic<Int>(0)
        board.start { wakes.add(1, ordering: .relaxed) }
        defer { board.stop() }
        guard case .pending = board.keyAuthorization(token: Self.token, host: "a.example.com") else {
            Issue.record("not pending")
            return
        }
        #expect(eventually(5) { wakes.load(ordering: .relaxed) == 1 })
        for _ in 0..<3 {
            guard case .found(let bytes) = board.keyAuthorization(token: Self.token, host: "a.example.com") else {
                Issue.record("not found")
                return
            }
            #expect(bytes == Array("\(Self.token).thumb".utf8))
        }
        // Another host never gets it (from the same cached answer).
        guard case .absent = board.keyAuthorization(token: Self.token, host: "b.example.com") else {
            Issue.record("answered for another host")
            return
        }
        #expect(source.reads.load(ordering: .relaxed) == 1)
        #expect(board.lookupCounts.found == 1 && board.lookupCounts.cached == 4)
    }

    @Test("a stranger's token: one read, then the absence is cached; a malformed one is never read")
    func absent() {
        let source = MemoryChallenges()
        let board = ChallengeBoard(source: source)
        board.start {}
        defer { board.stop() }
        guard case .pending = board.keyAuthorization(token: Self.token, host: "a.example.com") else {
            Issue.record("not pending")
            return
        }
        #expect(eventually(5) { board.lookupCounts.absent == 1 })
        for _ in 0..<5 {
            guard case .absent = board.keyAuthorization(token: Self.token, host: "a.example.com") else {
                Issue.record("not absent")
                return
            }
        }
        guard case .absent = board.keyAuthorization(token: "short", host: "a.example.com") else {
            Issue.record("a malformed token was looked up")
            return
        }
        guard case .absent = board.keyAuthorization(token: Self.token + "b", host: "a.example.com", lookUp: false)
        else {
            Issue.record("a host no site serves was looked up")
            return
        }
        #expect(source.reads.load(ordering: .relaxed) == 1)
    }

    @Test("at most 32 lookups at once: past that a check is answered absent without a query")
    func cap() {
        let source = MemoryChallenges()
        source.held.store(true, ordering: .relaxed)
        let board = ChallengeBoard(source: source)
        board.start {}
        defer {
            source.held.store(false, ordering: .relaxed)
            board.stop()
        }
        for index in 0..<ChallengeBoard.maxInFlight {
            let token = String(repeating: "a", count: 40) + String(format: "%03d", index)
            guard case .pending = board.keyAuthorization(token: token, host: "a.example.com") else {
                Issue.record("lookup \(index) not queued")
                return
            }
        }
        guard case .absent = board.keyAuthorization(token: Self.token, host: "a.example.com") else {
            Issue.record("the cap did not hold")
            return
        }
        #expect(board.lookupCounts.refused == 1)
    }

    @Test("the issuer posts to the store before answering locally, and removes from both")
    func posting() throws {
        let source = MemoryChallenges()
        let board = ChallengeBoard(source: source)
        try board.postHTTP(token: Self.token, name: "a.example.com", keyAuthorization: "k")
        #expect(source.posted.withLock { $0[.http(token: Self.token)]?.name } == "a.example.com")
        guard case .found = board.keyAuthorization(token: Self.token, host: "a.example.com") else {
            Issue.record("not answered locally")
            return
        }
        board.removeHTTP(token: Self.token)
        #expect(source.posted.withLock { $0.isEmpty })
        #expect(source.reads.load(ordering: .relaxed) == 0)
    }

    @Test(
        "a store key names its challenge",
        arguments: [
            ("challenges/http-01/abc", ChallengeKey.http(token: "abc")),
            ("challenges/tls-alpn-01/a.example.com", .tls(name: "a.example.com")),
            ("challenges/dns-01/a.example.com", nil), ("backoff/a.example.com", nil), ("challenges/http-01", nil),
        ] as [(String, ChallengeKey?)])
    func storeKeys(text: String, expected: ChallengeKey?) throws {
        #expect(StoreChallenges.challenge(try #require(StoreKey(text))) == expected)
    }
}
