import AASATransport
import Testing

@testable import AASAACME

/// The on-demand ask's waiting names, shared out by client (docs/security.md, "The on-demand
/// ask under a flood").
@Suite("the on-demand ask's fair queue")
struct AskQueueTests {
    /// Distinct IPv4 clients, each a source of its own (IPv6 /64s of one block are counted
    /// together past a few: `SourceBlocksTests`).
    static func client(_ index: UInt64) -> UInt64 {
        ClientSource.ipv4(10, UInt8(index >> 16 & 255), UInt8(index >> 8 & 255), UInt8(index & 255))
    }

    @Test("one name of each source in turn, newest first; a flood keeps only its newest four")
    func rotation() {
        var queue = AskQueue()
        var dropped: [String] = []
        for index in 0..<1000 { dropped += queue.add("junk\(index)", source: Self.client(1)) }
        #expect(dropped.count == 996 && dropped.first == "junk0")
        #expect(queue.add("real", source: Self.client(2)).isEmpty)
        #expect(queue.add("real", source: Self.client(2)).isEmpty)  // waiting already: once
        #expect(queue.count == 5)
        var taken: [String] = []
        while let name = queue.take() { taken.append(name) }
        #expect(taken == ["junk999", "real", "junk998", "junk997", "junk996"])
        #expect(queue.isEmpty)
    }

    @Test("a name waiting under one source is not added again under another")
    func oncePerName() {
        var queue = AskQueue()
        _ = queue.add("a.example", source: Self.client(1))
        _ = queue.add("a.example", source: Self.client(2))
        #expect(queue.count == 1)
        #expect(queue.take() == "a.example")
        #expect(queue.take() == nil)
    }

    @Test("past the most sources, a new one takes a random one's place; a real name sent again gets back in")
    func manySources() {
        var queue = AskQueue()
        for source in 0..<UInt64(AskQueue.mostSources) { _ = queue.add("junk\(source)", source: Self.client(source)) }
        // The new source takes the place of the one chosen (index 0 here).
        let dropped = queue.add("real", source: Self.client(10_000)) { _ in 0 }
        #expect(dropped == ["junk0"])
        #expect(queue.count == AskQueue.mostSources)
        #expect(queue.contains("real") && !queue.contains("junk0"))
        // Dropped in turn by a later newcomer, then sent again: back in.
        _ = queue.add("junk-late", source: Self.client(20_000)) { count in count - 1 }
        #expect(!queue.contains("real"))
        _ = queue.add("real", source: Self.client(10_000)) { _ in 0 }
        #expect(queue.contains("real"))
        var taken = 0
        while queue.take() != nil { taken += 1 }
        #expect(taken == AskQueue.mostSources)
    }

    @Test("a source emptied in the middle of the rotation keeps the turns in order; one that joins comes last")
    func cursor() {
        var queue = AskQueue()
        _ = queue.add("a1", source: Self.client(1))
        _ = queue.add("b1", source: Self.client(2))
        _ = queue.add("b2", source: Self.client(2))
        _ = queue.add("c1", source: Self.client(3))
        #expect(queue.take() == "a1")
        #expect(queue.take() == "b2")
        #expect(queue.take() == "c1")
        // A source that joins takes its turn at the end of the round.
        _ = queue.add("a2", source: Self.client(1))
        #expect(queue.take() == "a2")
        #expect(queue.take() == "b1")
        #expect(queue.take() == nil)
    }

    @Test("a /48 sending from each of its /64s holds a few places in the rotation; a client elsewhere keeps its own")
    func block() {
        var queue = AskQueue()
        _ = queue.add("real", source: Self.client(1))
        // 2001:db8:2:N::/64, as `ClientSource.key` makes it: every /64 of one /48 in turn.
        for subnet in 0..<UInt64(65_536) {
            #expect(queue.add("junk\(subnet)", source: 0x2001_0db8_0002_0000 | subnet).allSatisfy { $0 != "real" })
        }
        // At most the /48's sources (SourceBlocks), each keeping its newest four names.
        let waiting = queue.count
        #expect(waiting <= 1 + SourceBlocks.mostPer48 * AskQueue.perSource)
        var taken: [String] = []
        while let name = queue.take() { taken.append(name) }
        #expect(taken.first == "real" && taken.count == waiting)
    }
}
