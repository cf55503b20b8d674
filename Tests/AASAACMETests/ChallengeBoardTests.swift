import AASAStore
import AASATransport
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
        board.start { _ in wakes.add(1, ordering: .relaxed) }
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
        board.start { _ in }
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

    /// A started board whose store holds every lookup until `release` (then stopped): what
    /// waits counts against a source's share.
    static func heldBoard() -> (ChallengeBoard, release: () -> Void) {
        let source = MemoryChallenges()
        source.held.store(true, ordering: .relaxed)
        let board = ChallengeBoard(source: source)
        board.start { _ in }
        return (
            board,
            {
                source.held.store(false, ordering: .relaxed)
                board.stop()
            }
        )
    }

    static func junk(_ index: Int) -> String { String(repeating: "j", count: 37) + String(format: "%06d", index) }

    @Test("a source holds at most its share of lookups: past it a check is answered absent without a query")
    func share() {
        let (board, release) = Self.heldBoard()
        defer { release() }
        for index in 0..<ChallengeBoard.perSource {
            guard case .pending = board.keyAuthorization(token: Self.junk(index), host: "a.example.com", source: 1)
            else {
                Issue.record("lookup \(index) not queued")
                return
            }
        }
        guard case .absent = board.keyAuthorization(token: Self.token, host: "a.example.com", source: 1) else {
            Issue.record("the share did not hold")
            return
        }
        #expect(board.lookupCounts.refused == 1)
        // Another source has its own share.
        guard case .pending = board.keyAuthorization(token: Self.token, host: "a.example.com", source: 2) else {
            Issue.record("another source was refused")
            return
        }
    }

    @Test("every /64 of one /48 sending made-up tokens: a few sources' lookups; every other source keeps its share")
    func block() {
        let (board, release) = Self.heldBoard()
        defer { release() }
        // 2001:db8:2:N::/64 as `ClientSource.key` makes it, one token each.
        var queued = 0
        for subnet in 0..<UInt64(4096) {
            let answer = board.keyAuthorization(
                token: Self.junk(Int(subnet)), host: "a.example.com", source: 0x2001_0db8_0002_0000 | subnet)
            if case .pending = answer { queued += 1 }
        }
        #expect(queued <= SourceBlocks.mostPer48 * ChallengeBoard.perSource)
        // Checks from other /48s, one each (as a CA's perspectives): every one is looked up.
        for other in 0..<UInt64(ChallengeBoard.mostSources - SourceBlocks.mostPer48) {
            let answer = board.keyAuthorization(
                token: Self.junk(100_000 + Int(other)), host: "a.example.com",
                source: 0x2001_0db8_0100_0000 | other << 16)
            guard case .pending = answer else {
                Issue.record("the check from /48 \(other) was refused")
                return
            }
        }
    }

    @Test("a flood of made-up tokens from one source, the store slow: the CA's check from another is answered")
    func flood() throws {
        let source = MemoryChallenges()
        source.delay.store(2_000, ordering: .relaxed)  // 2 ms a read: a store further away
        try source.post(.http(token: Self.token), name: "a.example.com", keyAuthorization: "\(Self.token).thumb")
        let board = ChallengeBoard(source: source)
        let wakes = Atomic<Int>(0)
        board.start { _ in wakes.add(1, ordering: .relaxed) }
        defer { board.stop() }
        var sent = 0
        // The flood keeps asking, as fast as a loop would hand its requests over, before
        // and while the CA checks; the check is asked again at each wake-up, as a parked
        // request is.
        func flood(_ count: Int) {
            for _ in 0..<count {
                _ = board.keyAuthorization(token: Self.junk(sent), host: "a.example.com", source: 1)
                sent += 1
            }
        }
        flood(1000)
        let deadline = Date().addingTimeInterval(5)
        var answer: ChallengeBoard.Answer<[UInt8]> = .pending
        var checks = 0
        while Date() < deadline {
            answer = board.keyAuthorization(token: Self.token, host: "a.example.com", source: 2)
            checks += 1
            guard case .pending = answer else { break }
            flood(50)
            usleep(1000)
        }
        guard case .found(let bytes) = answer else {
            Issue.record("the CA's check was not answered (\(answer)) after \(checks) checks, \(sent) made-up tokens")
            return
        }
        #expect(bytes == Array("\(Self.token).thumb".utf8))
        // The flood was refused past its share, not queried.
        #expect(board.lookupCounts.refused >= sent - 200)
        #expect(source.reads.load(ordering: .relaxed) < 200)
    }

    @Test("another replica's challenge, announced by the store: read ahead, so the check is answered at once")
    func notice() throws {
        let source = MemoryChallenges()
        let board = ChallengeBoard(source: source)
        let wakes = Atomic<Int>(0)
        board.start { _ in wakes.add(1, ordering: .relaxed) }
        defer { board.stop() }
        // Another replica posts (and its store announces it).
        try source.post(.http(token: Self.token), name: "a.example.com", keyAuthorization: "k")
        board.noticed(.http(token: Self.token))
        #expect(eventually(5) { board.lookupCounts.prefetched == 1 })
        guard case .found = board.keyAuthorization(token: Self.token, host: "a.example.com", source: 2) else {
            Issue.record("not answered from the notice")
            return
        }
        #expect(board.lookupCounts.found == 0 && board.lookupCounts.cached == 1)
        // Removed: the notice drops the answer, and the next check is absent without a lookup.
        source.remove(.http(token: Self.token))
        board.noticed(.http(token: Self.token))
        #expect(eventually(5) { board.lookupCounts.prefetched == 2 })
        guard case .absent = board.keyAuthorization(token: Self.token, host: "a.example.com", source: 2) else {
            Issue.record("a removed challenge still answered")
            return
        }
        #expect(source.reads.load(ordering: .relaxed) == 2)
        // A removal the notice names (a folder store's inotify) is not read.
        let other = String(repeating: "b", count: 43)
        try source.post(.http(token: other), name: "a.example.com", keyAuthorization: "k")
        board.noticed(.http(token: other))
        #expect(eventually(5) { board.lookupCounts.prefetched == 3 })
        source.remove(.http(token: other))
        board.noticed(.http(token: other), removed: true)
        guard case .absent = board.keyAuthorization(token: other, host: "a.example.com", source: 2) else {
            Issue.record("a removal named by its notice still answered")
            return
        }
        #expect(source.reads.load(ordering: .relaxed) == 3)
    }

    @Test("this replica's own challenges: their notices, posting and removal, cost no read")
    func ownNotices() throws {
        let source = MemoryChallenges()
        let board = ChallengeBoard(source: source)
        board.start { _ in }
        defer { board.stop() }
        try board.postHTTP(token: Self.token, name: "a.example.com", keyAuthorization: "k")
        board.noticed(.http(token: Self.token))
        board.removeHTTP(token: Self.token)
        board.noticed(.http(token: Self.token))
        // Another replica posting later is read again.
        try source.post(.http(token: Self.token), name: "a.example.com", keyAuthorization: "k2")
        board.noticed(.http(token: Self.token))
        #expect(eventually(5) { board.lookupCounts.prefetched == 1 })
        #expect(source.reads.load(ordering: .relaxed) == 1)
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
            ("preflight/preflight-abc", .http(token: "preflight-abc")), ("preflight/abc", nil),
        ] as [(String, ChallengeKey?)])
    func storeKeys(text: String, expected: ChallengeKey?) throws {
        #expect(StoreChallenges.challenge(try #require(StoreKey(text))) == expected)
    }
}
