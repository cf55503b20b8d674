import AASASites
@preconcurrency import Glibc

/// The fixed paths of the table of kinds (`WellKnownFile.served`), made once into bytes the
/// request path compares without allocating: a path under `/.well-known/` is compared by its
/// tail, so most requests cost one prefix check and a few length checks.
final class ServedPathTable {
    struct Entry {
        /// Where the path's bytes are in `bytes` (the tail after `/.well-known/` for a well-known one).
        let start: Int
        let count: Int
        /// The slot of the kind in `SiteContent.files`.
        let slot: Int
        let isWellKnown: Bool
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

    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let entries: [Entry]

    init() {
        var all: [UInt8] = []
        var entries: [Entry] = []
        let prefix = Self.prefix.description
        var index = 0
        for (slot, row) in WellKnownFile.served.enumerated() {
            for path in row.paths {
                let isWellKnown = path.hasPrefix(prefix)
                let stored = Array((isWellKnown ? String(path.dropFirst(prefix.count)) : path).utf8)
                entries.append(
                    Entry(
                        start: all.count, count: stored.count, slot: slot, isWellKnown: isWellKnown,
                        path: ServedPath(index: UInt8(index), isApple: row.kind == .apple)))
                all += stored
                index += 1
            }
        }
        bytes = .allocate(capacity: max(1, all.count))
        _ = bytes.initialize(from: all)
        self.entries = entries
    }

    deinit { bytes.deallocate() }

    /// The path `range` of `buffer` (origin-form; a query is ignored).
    @inline(__always)
    func match(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Match {
        let end = HTTPRequestParser.first(UInt8(ascii: "?"), in: buffer, range) ?? range.upperBound
        let prefixCount = Self.prefix.utf8CodeUnitCount
        let isWellKnown =
            end - range.lowerBound >= prefixCount
            && HTTPToken.equals(buffer, range.lowerBound..<(range.lowerBound + prefixCount), Self.prefix)
        let path = isWellKnown ? (range.lowerBound + prefixCount)..<end : range.lowerBound..<end
        for entry in entries where entry.isWellKnown == isWellKnown && equals(buffer, path, entry) {
            return .served(entry.path, slot: entry.slot)
        }
        return isWellKnown ? .wellKnown(tail: path) : .other
    }

    @inline(__always)
    private func equals(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ entry: Entry) -> Bool {
        guard range.count == entry.count, let base = buffer.baseAddress, let stored = bytes.baseAddress else {
            return false
        }
        return memcmp(base + range.lowerBound, stored + entry.start, entry.count) == 0
    }
}
