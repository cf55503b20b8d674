import AASALoop
import AssociationKit
@preconcurrency import Glibc

/// The site for a Host value's exact bytes, remembered per loop: a host the loop has seen
/// skips normalizing and the site map's SipHash (about 650 instructions), for a hash of the
/// raw bytes and one compare. Direct-mapped, 256 slots of hosts up to 64 bytes; only valid
/// host names are remembered, with their site or with none. Every slot is dropped when the
/// loop moves to a new snapshot, which is also what keeps the sites it points to alive.
final class HostCache {
    static let slotCount = 256
    static let longestHost = 64

    private struct Slot {
        /// The raw host's length; 0 when empty.
        var length = 0
        /// Not retained: the loop's snapshot holds the site until `removeAll()`.
        var site: Unmanaged<SiteContent>?
    }

    private let slots: UnsafeMutablePointer<Slot>
    /// `longestHost` bytes per slot: the raw host it holds.
    private let hosts: UnsafeMutablePointer<UInt8>

    init() {
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: Slot(), count: Self.slotCount)
        hosts = .allocate(capacity: Self.slotCount * Self.longestHost)
    }

    deinit {
        slots.deinitialize(count: Self.slotCount)
        slots.deallocate()
        hosts.deallocate()
    }

    func removeAll() {
        for index in 0..<Self.slotCount { slots[index] = Slot() }
    }

    /// The site `buffer[range]` names in `table` (nil inside when it names none), or nil when
    /// it is not a host name (`HostName.withKey`).
    func site(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, in table: SiteTable) -> SiteContent?? {
        guard range.count <= Self.longestHost, range.count > 0, range.upperBound <= buffer.count,
            let raw = buffer.baseAddress.map({ $0 + range.lowerBound })
        else {
            return HostName.withKey(buffer, range) { table.site(forHost: $0) }
        }
        let hash = FNV1a.hash64(UnsafeBufferPointer(start: raw, count: range.count))
        let index = Int(truncatingIfNeeded: hash >> 56)
        let stored = hosts + index * Self.longestHost
        if slots[index].length == range.count && memcmp(stored, raw, range.count) == 0 {
            return .some(slots[index].site?.takeUnretainedValue())
        }
        guard let found = HostName.withKey(buffer, range, { table.site(forHost: $0) }) else { return nil }
        stored.update(from: raw, count: range.count)
        slots[index] = Slot(length: range.count, site: found.map { Unmanaged.passUnretained($0) })
        return found
    }
}
