/// Which source an IPv6 client is counted as, so that a block spreading over its /64s takes a
/// bounded part of a share, not one source's share per /64 (docs/security.md, "Work a stranger
/// can queue"). `ClientSource` keys an IPv6 client by its /64, as one link is one /64 (RFC 4291
/// §2.5.1); but a site is given a /56 or a /48 (RFC 6177), 256 or 65,536 /64s, and one that
/// sent each ClientHello from another /64 used to be as many sources: every place of the loader
/// and the lookups, and every rotation's turns. So the sources are counted hierarchically:
///
/// - a /64 already holding a share keeps being counted as itself;
/// - a new /64 is a source of its own while its /56 has fewer than `ownPer56` /64s holding
///   shares and its /48 fewer than `ownPer48` sources below it: a household or an office, with
///   a few links in use at once, is never penalised;
/// - past that, the /56 is the source (one share for all its other /64s), while its /48 has
///   fewer than `ownBlocks56Per48` /56s counted so;
/// - past that again, the /48 is the source.
///
/// A /56 then holds at most `ownPer56 + 1` sources of its own, a /48 at most `ownPer48 +
/// ownBlocks56Per48 + 1` sources' worth, however many /64s it spreads over; a client in another
/// /48 is counted apart, and a neighbour in another /56 of the same /48 (an ISP's customers,
/// RFC 6177) gets a source of its own, its /64's or its /56's, unless more than
/// `ownBlocks56Per48` /56s of that /48 are spreading at once. IPv4 addresses (and IPv4-mapped
/// ones) are counted whole, as before.
///
/// Held by each share keeper beside its own table (`SourceShares`, `AskQueue`, the loop's
/// `WaitingRoom`), under its lock or on its thread: `charged` picks the source, `opened` and
/// `closed` follow the keeper's sources coming and going. Its tables count sources below each
/// block holding something: at most three entries per source the keeper holds, and reserved up
/// front, so nothing here allocates on a request's path.
package struct SourceBlocks {
    /// /64s of one /56 counted as sources of their own at once.
    package static let ownPer56 = 2
    /// Sources below one /48 (its /64s and /56s) past which its new /64s are not their own.
    package static let ownPer48 = 4
    /// /56s of one /48 counted as sources at once: a stranger spreading over one or two /56s of
    /// an ISP's /48 leaves the ISP's other customers their own sources.
    package static let ownBlocks56Per48 = 4

    /// The most sources one /48 is counted as at once, however many /64s it spreads over.
    package static let mostPer48 = ownPer48 + ownBlocks56Per48 + 1

    /// Sources holding something, below each /56 and /48 block (by `ClientSource`'s block keys).
    private var below: [UInt64: Int] = [:]
    /// /56 sources holding something, by the key of their /48.
    private var blocks56: [UInt64: Int] = [:]

    /// `sources`: how many sources the keeper holds at most.
    package init(sources: Int) {
        below.reserveCapacity(2 * max(sources, 1))
        blocks56.reserveCapacity(max(sources, 1))
    }

    /// The source `key` (`ClientSource.key`) is counted as; `holds` says whether the keeper holds
    /// anything of a source now.
    package func charged(_ key: UInt64, holds: (UInt64) -> Bool) -> UInt64 {
        guard ClientSource.kind(key) == .ipv6Subnet, !holds(key) else { return key }
        let block56 = ClientSource.block56(key)
        let block48 = ClientSource.block48(key)
        if below[block48, default: 0] < Self.ownPer48 && below[block56, default: 0] < Self.ownPer56 { return key }
        if holds(block56) || blocks56[block48, default: 0] < Self.ownBlocks56Per48 { return block56 }
        return block48
    }

    /// `source` (as `charged` gave it) now holds something, where it held nothing.
    package mutating func opened(_ source: UInt64) {
        adjust(source, by: 1)
    }

    /// `source` holds nothing any more.
    package mutating func closed(_ source: UInt64) {
        adjust(source, by: -1)
    }

    /// Sources held below `block` (a /56's or a /48's key), for tests.
    func count(below block: UInt64) -> Int { below[block, default: 0] }

    /// /56 sources held below the /48 `block`, for tests.
    func blocks56(below block: UInt64) -> Int { blocks56[block, default: 0] }

    private mutating func adjust(_ source: UInt64, by step: Int) {
        switch ClientSource.kind(source) {
        case .ipv4, .ipv6Block48: return
        case .ipv6Subnet:
            add(step, to: ClientSource.block56(source))
            add(step, to: ClientSource.block48(source))
        case .ipv6Block56:
            add(step, to: ClientSource.block48(source))
            add(step, to: ClientSource.block48(source), in: &blocks56)
        }
    }

    private mutating func add(_ step: Int, to block: UInt64) {
        add(step, to: block, in: &below)
    }

    private func add(_ step: Int, to block: UInt64, in counts: inout [UInt64: Int]) {
        let count = counts[block, default: 0] + step
        counts[block] = count > 0 ? count : nil
    }
}
