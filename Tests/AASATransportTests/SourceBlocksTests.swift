import Testing

@testable import AASATransport

/// IPv6 clients counted by their block when the block spreads over its /64s (RFC 6177: a
/// site gets a /48 or a /56), so one block takes a bounded part of a share (docs/security.md,
/// "Work a stranger can queue").
@Suite("IPv6 sources counted by their block")
struct SourceBlocksTests {
    static func key(_ address: String) throws -> UInt64 {
        try ClientSourceTests.key(address.contains(".") && !address.contains(":") ? "\(address):1" : "[\(address)]:1")
    }

    /// Clients arriving in turn, each holding something from then on, and what each is counted as.
    static func arrivals(_ addresses: [String]) throws -> [ClientSource.Kind] {
        var blocks = SourceBlocks(sources: 64)
        var holding: Set<UInt64> = []
        return try addresses.map { address in
            let source = blocks.charged(try key(address)) { holding.contains($0) }
            if holding.insert(source).inserted { blocks.opened(source) }
            return ClientSource.kind(source)
        }
    }

    @Test(
        "which source each client is counted as, in the order they come",
        arguments: [
            // A /56 spreading: two /64s of their own, then the /56 for the rest.
            (
                ["2001:db8:1::1", "2001:db8:1:1::1", "2001:db8:1:2::1", "2001:db8:1:ff::1"],
                [.ipv6Subnet, .ipv6Subnet, .ipv6Block56, .ipv6Block56]
            ),
            // A /64 already holding stays itself, however full its block is.
            (
                ["2001:db8:1::1", "2001:db8:1:1::1", "2001:db8:1:2::1", "2001:db8:1::2", "2001:db8:1:1:ffff::9"],
                [.ipv6Subnet, .ipv6Subnet, .ipv6Block56, .ipv6Subnet, .ipv6Subnet]
            ),
            // A /48 spreading over its /56s: four /64s of their own, four /56s, then the /48.
            (
                [
                    "2001:db8:1::1", "2001:db8:1:100::1", "2001:db8:1:200::1", "2001:db8:1:300::1",
                    "2001:db8:1:400::1", "2001:db8:1:500::1", "2001:db8:1:600::1", "2001:db8:1:700::1",
                    "2001:db8:1:800::1", "2001:db8:1:ffff::1",
                ],
                [
                    .ipv6Subnet, .ipv6Subnet, .ipv6Subnet, .ipv6Subnet, .ipv6Block56, .ipv6Block56, .ipv6Block56,
                    .ipv6Block56, .ipv6Block48, .ipv6Block48,
                ]
            ),
            // A stranger over two /56s of an ISP's /48 fills its /64s' room: a neighbour in a third
            // /56 is counted as its own /56, not pooled with the stranger in the /48.
            (
                [
                    "2001:db8:1:100::1", "2001:db8:1:101::1", "2001:db8:1:200::1", "2001:db8:1:201::1",
                    "2001:db8:1:202::1", "2001:db8:1:102::1", "2001:db8:1:300::1",
                ],
                [.ipv6Subnet, .ipv6Subnet, .ipv6Subnet, .ipv6Subnet, .ipv6Block56, .ipv6Block56, .ipv6Block56]
            ),
            // A /56 spreading, then a neighbour in another /56 of the same /48: its own /64.
            (
                ["2001:db8:1::1", "2001:db8:1:1::1", "2001:db8:1:2::1", "2001:db8:1:3::1", "2001:db8:1:500::1"],
                [.ipv6Subnet, .ipv6Subnet, .ipv6Block56, .ipv6Block56, .ipv6Subnet]
            ),
            // Other /48s are counted apart.
            (
                [
                    "2001:db8:1::1", "2001:db8:1:100::1", "2001:db8:1:200::1", "2001:db8:1:300::1",
                    "2001:db8:1:400::1", "2001:db8:2::1", "2001:db8:3:1::1",
                ],
                [.ipv6Subnet, .ipv6Subnet, .ipv6Subnet, .ipv6Subnet, .ipv6Block56, .ipv6Subnet, .ipv6Subnet]
            ),
            // IPv4 and IPv4-mapped addresses: whole, however many.
            (
                ["192.0.2.1", "192.0.2.2", "192.0.2.3", "::ffff:192.0.2.4", "192.0.2.5"],
                [.ipv4, .ipv4, .ipv4, .ipv4, .ipv4]
            ),
        ] as [([String], [ClientSource.Kind])])
    func charged(_ addresses: [String], _ kinds: [ClientSource.Kind]) throws {
        #expect(try Self.arrivals(addresses) == kinds)
    }

    @Test("an IPv4 client keeps its own key; an IPv6 /64 keeps its own while its block has room")
    func keys() throws {
        let blocks = SourceBlocks(sources: 8)
        for address in ["192.0.2.1", "::ffff:192.0.2.1", "2001:db8:1:2::1"] {
            #expect(blocks.charged(try Self.key(address)) { _ in false } == (try Self.key(address)))
        }
    }

    @Test("the counts below each block go back to nothing when its sources hold nothing")
    func counts() throws {
        var blocks = SourceBlocks(sources: 8)
        let subnet = try Self.key("2001:db8:1:2::1")
        let block56 = ClientSource.block56(subnet)
        let block48 = ClientSource.block48(subnet)
        blocks.opened(subnet)
        blocks.opened(block56)
        blocks.opened(block48)
        #expect(blocks.count(below: block56) == 1 && blocks.count(below: block48) == 2)
        #expect(blocks.blocks56(below: block48) == 1)
        blocks.closed(block56)
        blocks.closed(subnet)
        blocks.closed(block48)
        #expect(blocks.count(below: block56) == 0 && blocks.count(below: block48) == 0)
        #expect(blocks.blocks56(below: block48) == 0)
    }

    /// Every /64 of `prefix` (its first `count`), each asking for `each` items.
    static func spread(
        _ shares: inout SourceShares<String>, prefix: String, count: Int, each: Int
    ) throws -> (added: Int, sources: Set<UInt64>) {
        var added = 0
        var sources: Set<UInt64> = []
        for subnet in 0..<count {
            let client = try key(String(format: "\(prefix):%x::1", subnet))
            for item in 0..<each where shares.add("\(prefix)/\(subnet)/\(item)", source: client) == .added {
                added += 1
                sources.insert(try #require(shares.source(of: "\(prefix)/\(subnet)/\(item)")))
            }
        }
        return (added, sources)
    }

    @Test("a /56 over its 256 /64s, a /48 over 65,536: a bounded part of the loader's places; others served")
    func bound() throws {
        var shares = SourceShares<String>(
            perSource: CertificateCache.perSource, mostSources: CertificateCache.mostSources)
        let perSource = CertificateCache.perSource
        // 2001:db8:1:0::/56, every /64: two of their own and the /56's share.
        let slash56 = try Self.spread(&shares, prefix: "2001:db8:1", count: 256, each: 40)
        #expect(slash56.sources.count == SourceBlocks.ownPer56 + 1)
        #expect(slash56.added == (SourceBlocks.ownPer56 + 1) * perSource)
        // 2001:db8:2::/48, every /64: four /64s, four /56s and the /48's share.
        let slash48 = try Self.spread(&shares, prefix: "2001:db8:2", count: 65_536, each: 1)
        let most48 = SourceBlocks.mostPer48
        #expect(slash48.sources.count <= most48)
        #expect(slash48.added <= most48 * perSource)
        // Far from every place: a client in another /48, or on IPv4, is served.
        #expect(shares.count < CertificateCache.mostQueued / 20)
        #expect(shares.add("real6", source: try Self.key("2001:db8:3:1::1")) == .added)
        #expect(shares.add("real4", source: try Self.key("192.0.2.1")) == .added)
        #expect(shares.add("neighbour", source: try Self.key("2001:db8:1:100::1")) == .added)
        // Every place given back: the blocks hold nothing, the /64s have their own again.
        while let item = shares.take() { shares.finish(item) }
        #expect(shares.count == 0)
        #expect(shares.add("again", source: try Self.key("2001:db8:2:ffff::1")) == .added)
        #expect(shares.source(of: "again") == (try Self.key("2001:db8:2:ffff::1")))
    }

    @Test("the challenge lookups: a /48 over its /64s holds a bounded part of the 64 sources")
    func lookups() throws {
        var shares = SourceShares<String>(perSource: 4, mostSources: 64)
        let flood = try Self.spread(&shares, prefix: "2001:db8:2", count: 4096, each: 4)
        let most48 = SourceBlocks.mostPer48
        #expect(flood.sources.count <= most48 && flood.added <= most48 * 4)
        for other in 0..<(64 - flood.sources.count) {
            #expect(shares.add("ca\(other)", source: try Self.key("2001:db8:\(other + 10)::1")) == .added)
        }
    }
}
