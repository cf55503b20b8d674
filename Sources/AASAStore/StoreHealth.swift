import Synchronization

/// Whether a store is reachable and its errors by operation, for `/metrics` (`aasa_store_up`,
/// `aasa_store_errors_total{operation}`) and the status page. Written by the store's calls,
/// read by the admin thread (an atomic, and a lock taken only on an error or a scrape).
public final class StoreHealth: Sendable {
    private let up = Atomic<Bool>(true)
    private let queryCount = Atomic<Int>(0)
    private let counts = Mutex([Int](repeating: 0, count: StoreOperation.allCases.count))

    public init() {}

    /// Whether the last attempt to reach the store worked (the folder: its last call).
    public var isUp: Bool { up.load(ordering: .relaxed) }

    /// The errors of `operation` since the start.
    public func errors(_ operation: StoreOperation) -> Int {
        counts.withLock { $0[Self.index(operation)] }
    }

    /// Every operation with its count, in `StoreOperation.allCases` order.
    public var errorCounts: [(operation: StoreOperation, count: Int)] {
        StoreOperation.allCases.map { ($0, errors($0)) }
    }

    /// Statements sent to a database server since the start (0 for a folder): what each
    /// operation costs, measured.
    public var queries: Int { queryCount.load(ordering: .relaxed) }

    package func recordQuery() {
        queryCount.add(1, ordering: .relaxed)
    }

    package func recordUp(_ value: Bool) {
        up.store(value, ordering: .relaxed)
    }

    package func recordError(_ operation: StoreOperation) {
        counts.withLock { $0[Self.index(operation)] += 1 }
    }

    private static func index(_ operation: StoreOperation) -> Int {
        StoreOperation.allCases.firstIndex(of: operation) ?? 0
    }
}
