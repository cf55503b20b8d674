import Testing

@testable import AASATransport

/// The shares of work strangers can queue (docs/security.md, "Work a stranger can queue").
@Suite("work shared out by client source")
struct SourceSharesTests {
    /// Distinct IPv4 clients, each a source of its own (IPv6 /64s of one block are counted
    /// together past a few: `SourceBlocksTests`).
    static func client(_ index: UInt64) -> UInt64 {
        ClientSource.ipv4(10, UInt8(index >> 16 & 255), UInt8(index >> 8 & 255), UInt8(index & 255))
    }

    @Test("a source past its share is refused, not queued in another's place; the worker takes turns")
    func shares() {
        var shares = SourceShares<String>(perSource: 4, mostSources: 8)
        var admissions: [SourceShares<String>.Admission] = []
        for index in 0..<1000 { admissions.append(shares.add("junk\(index)", source: Self.client(1))) }
        #expect(admissions.filter { $0 == .added }.count == 4)
        #expect(admissions.filter { $0 == .refused }.count == 996)
        #expect(shares.add("real", source: Self.client(2)) == .added)
        #expect(shares.add("real", source: Self.client(3)) == .present)  // one load, its waiters share it
        #expect(shares.count == 5 && shares.waitingCount == 5)
        var taken: [String] = []
        while let item = shares.take() { taken.append(item) }
        #expect(taken == ["junk0", "real", "junk1", "junk2", "junk3"])
        // Taken is not finished: the source's places stay held until then.
        #expect(shares.add("junk4", source: Self.client(1)) == .refused)
        shares.finish("junk0")
        #expect(shares.add("junk4", source: Self.client(1)) == .added)
    }

    @Test("at most mostSources sources; one that finished everything makes room")
    func sources() {
        var shares = SourceShares<Int>(perSource: 2, mostSources: 3)
        for source in 0..<3 { #expect(shares.add(Int(source), source: Self.client(UInt64(source))) == .added) }
        #expect(shares.add(100, source: Self.client(100)) == .refused)
        let first = shares.take()
        #expect(first == 0)
        // Still working on source 0's item: it holds its place.
        #expect(shares.add(100, source: Self.client(100)) == .refused)
        shares.finish(0)
        #expect(shares.add(100, source: Self.client(100)) == .added)
        #expect(shares.removeWaiting().sorted() == [1, 2, 100])
        #expect(shares.count == 0 && shares.take() == nil)
    }
}
