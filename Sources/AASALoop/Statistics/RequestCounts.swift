/// Requests by path and status in fixed integer slots: what every request adds to, with no
/// hashing and no allocation (the paths and statuses are closed sets, `ServedPath` and
/// `HTTPStatus`). Site names are counted apart, and only with per-site metrics on.
public struct RequestCounts: Sendable, Equatable {
    /// The path labels of the slots: the served paths of the table of kinds, change-password
    /// and the `well-known/` folder (`ServedPath.labels`), then every other path.
    static let pathLabels = ServedPath.labels + ["other"]
    private static let statuses = HTTPStatus.allCases

    private var slots = [Int](repeating: 0, count: pathLabels.count * HTTPStatus.allCases.count)
    /// Copied into each value, so counting reads no global per request.
    private let statusCount = HTTPStatus.allCases.count
    private let otherRow = ServedPath.labels.count
    /// The sum of the slots, so `isEmpty` (asked at every fold) reads one word, not every slot.
    private var total = 0

    public init() {}

    @inline(__always)
    mutating func add(path: ServedPath?, status: HTTPStatus) {
        let row = path.map { Int($0.index) } ?? otherRow
        slots[row &* statusCount &+ status.slot] &+= 1
        total &+= 1
    }

    mutating func add(_ other: RequestCounts) {
        guard other.total != 0 else { return }
        for index in slots.indices { slots[index] &+= other.slots[index] }
        total &+= other.total
    }

    /// Back to zero, keeping the storage.
    mutating func reset() {
        guard total != 0 else { return }
        for index in slots.indices { slots[index] = 0 }
        total = 0
    }

    var isEmpty: Bool { total == 0 }

    /// Every count that is not zero, with its path label and status code.
    public var nonZero: [(path: String, status: Int, count: Int)] {
        slots.indices.compactMap { index in
            let count = slots[index]
            guard count != 0 else { return nil }
            let (path, status) = index.quotientAndRemainder(dividingBy: Self.statuses.count)
            return (Self.pathLabels[path], Self.statuses[status].rawValue, count)
        }
    }

    @inline(__always)
    static func pathSlot(_ path: ServedPath?) -> Int {
        path.map { Int($0.index) } ?? ServedPath.labels.count
    }
}
