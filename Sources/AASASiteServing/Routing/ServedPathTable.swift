import AASALoop
import AASASites
@preconcurrency import Glibc

/// The fixed paths of the table of kinds (`WellKnownFile.served`), made once into bytes the
/// request path compares without allocating or retaining: a few length checks and one memcmp.
final class ServedPathTable {
    struct Entry {
        /// Where the path's bytes are in `bytes`.
        let start: Int
        let count: Int
        /// The slot of the kind in `SiteContent`'s files.
        let slot: Int
        let path: ServedPath
    }

    /// What a request's path is to the table.
    enum Match {
        /// A fixed path: the served path and the kind's slot.
        case served(ServedPath, slot: Int)
        /// Any other path under `/.well-known/`: its tail, which no fallback ever answers.
        case wellKnown(tail: Range<Int>)
        case other
    }

    static let prefix: StaticString = "/.well-known/"

    // Made once and never changed: read through pointers, so a request retains nothing.
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let entries: UnsafeMutableBufferPointer<Entry>
    /// The entries under `/.well-known/`, and the others (Apple's root path): a path's second
    /// byte says which to compare with.
    private let wellKnown: Range<Int>
    private let root: Range<Int>

    init() {
        var all: [UInt8] = []
        var entries: [Entry] = []
        var index = 0
        var rootEntries: [Entry] = []
        let prefix = Self.prefix.description
        for (slot, row) in WellKnownFile.served.enumerated() {
            for path in row.paths {
                let stored = Array(path.utf8)
                let entry = Entry(
                    start: all.count, count: stored.count, slot: slot,
                    path: ServedPath(index: UInt8(index), isApple: row.kind == .apple))
                if path.hasPrefix(prefix) { entries.append(entry) } else { rootEntries.append(entry) }
                all += stored
                index += 1
            }
        }
        wellKnown = 0..<entries.count
        root = entries.count..<(entries.count + rootEntries.count)
        entries += rootEntries
        bytes = .allocate(capacity: max(1, all.count))
        _ = bytes.initialize(from: all)
        self.entries = .allocate(capacity: entries.count)
        _ = self.entries.initialize(from: entries)
    }

    deinit {
        bytes.deallocate()
        entries.deallocate()
    }

    /// The path `range` of `buffer` (origin-form; a query is ignored): the served paths of its
    /// side (under `/.well-known/` or not, by the second byte) compared whole (a length check
    /// rules most out), the prefix only when none matched.
    @inline(__always)
    func match(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Match {
        let end = HTTPRequestParser.first(UInt8(ascii: "?"), in: buffer, range) ?? range.upperBound
        let path = range.lowerBound..<end
        let dotted = path.count > 1 && buffer[path.lowerBound + 1] == UInt8(ascii: ".")
        for index in dotted ? wellKnown : root where equals(buffer, path, entries[index]) {
            return .served(entries[index].path, slot: entries[index].slot)
        }
        let prefixCount = Self.prefix.utf8CodeUnitCount
        guard dotted, path.count >= prefixCount,
            HTTPToken.equals(buffer, path.lowerBound..<(path.lowerBound + prefixCount), Self.prefix)
        else { return .other }
        return .wellKnown(tail: (path.lowerBound + prefixCount)..<end)
    }

    @inline(__always)
    private func equals(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ entry: Entry) -> Bool {
        guard range.count == entry.count, let base = buffer.baseAddress, let stored = bytes.baseAddress else {
            return false
        }
        return memcmp(base + range.lowerBound, stored + entry.start, entry.count) == 0
    }
}
