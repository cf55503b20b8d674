/// Requests by path and status in fixed integer slots: what every request adds to, with no
/// hashing and no allocation. The statuses are a closed set (`HTTPStatus`), and so are the
/// paths: the handler's `RequestHandler.countedPaths`, then one row for every other path.
/// Site names are counted apart, and only with per-site metrics on.
public struct RequestCounts: Sendable, Equatable {
    private static let statuses = HTTPStatus.allCases

    private var slots: [Int]
    /// Copied into each value, so counting reads no global per request.
    private let statusCount = HTTPStatus.allCases.count
    /// The row of every path not counted apart: the last.
    private var otherRow: Int
    /// The sum of the slots, so `isEmpty` (asked at every fold) reads one word, not every slot.
    private var total = 0

    /// Room for `paths` counted paths and the row of the others.
    public init(paths: Int = 0) {
        otherRow = paths
        slots = [Int](repeating: 0, count: (paths + 1) * HTTPStatus.allCases.count)
    }

    @inline(__always)
    mutating func add(path: UInt8?, status: HTTPStatus) {
        let row = path.map { Int($0) } ?? otherRow
        slots[row &* statusCount &+ status.slot] &+= 1
        total &+= 1
    }

    /// Adds `other`'s counts; a value with fewer rows (a sum's empty start) takes `other`'s.
    mutating func add(_ other: RequestCounts) {
        guard other.total != 0 else { return }
        if other.otherRow == otherRow {
            for index in slots.indices { slots[index] &+= other.slots[index] }
            total &+= other.total
            return
        }
        if other.otherRow > otherRow {
            var wider = RequestCounts(paths: other.otherRow)
            wider.add(self)
            self = wider
        }
        for index in other.slots.indices {
            let (row, status) = index.quotientAndRemainder(dividingBy: statusCount)
            let own = row == other.otherRow ? otherRow : row
            slots[own &* statusCount &+ status] &+= other.slots[index]
        }
        total &+= other.total
    }

    /// Back to zero, keeping the storage.
    mutating func reset() {
        guard total != 0 else { return }
        for index in slots.indices { slots[index] = 0 }
        total = 0
    }

    var isEmpty: Bool { total == 0 }

    /// Every count that is not zero, with its path's label (`labels[row]`, `other` past them)
    /// and status code.
    public func nonZero(labels: [String]) -> [(path: String, status: Int, count: Int)] {
        slots.indices.compactMap { index in
            let count = slots[index]
            guard count != 0 else { return nil }
            let (row, status) = index.quotientAndRemainder(dividingBy: statusCount)
            return (row < otherRow && row < labels.count ? labels[row] : "other", Self.statuses[status].rawValue, count)
        }
    }
}
