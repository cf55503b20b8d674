import Synchronization

/// What one event loop has served, for /metrics. The loop counts into plain local totals and
/// folds them in here once per loop iteration, so the request path takes no lock; a scrape
/// locks each loop's totals once and sums them.
public final class LoopStatistics: Sendable {
    public struct RequestKey: Hashable, Sendable {
        public var site: String
        public var path: String
        public var status: Int
    }

    public struct Totals: Sendable {
        /// By path and status, summed over sites.
        public var requests: RequestCounts
        /// By site, path and status: counted only with per-site metrics on.
        public var siteRequests: [RequestKey: Int] = [:]
        public var bodyBytes = 0
        public var gzipResponses = 0
        public var identityResponses = 0
        public var handshakes = 0
        public var handshakeFailures: [String: Int] = [:]
        public var openConnections = 0
        /// TLS handshakes in progress now (a gauge, like `openConnections`).
        public var handshakesInProgress = 0
        /// Closed to stay within the caps: the oldest handshake in progress for a new one
        /// (`--max-handshakes`), the longest idle keep-alive connection (`--max-connections`).
        public var handshakesClosedAtCap = 0
        public var idleClosedAtCap = 0
        /// Closed past the loop's bound on connections waiting for an answer (`WaitingRoom`).
        public var waitingClosedAtCap = 0
        /// Times a loop stopped accepting at `--max-connections` with nothing idle to close.
        public var acceptsDeferred = 0
        /// Access-log lines dropped while stdout did not keep up.
        public var accessLogDropped = 0
        /// Answers of the kinds the handler counts apart, indexed by `RequestOutcome.kind`.
        public var kinds: [Int]

        /// Room for a handler's counted paths and kinds (`RequestHandler`); a sum starts
        /// with none and takes the room of what it adds.
        public init(paths: Int = 0, kinds: Int = 0) {
            requests = RequestCounts(paths: paths)
            self.kinds = [Int](repeating: 0, count: kinds)
        }

        mutating func add(_ other: Totals) {
            requests.add(other.requests)
            for (key, count) in other.siteRequests { siteRequests[key, default: 0] += count }
            bodyBytes += other.bodyBytes
            gzipResponses += other.gzipResponses
            identityResponses += other.identityResponses
            handshakes += other.handshakes
            for (reason, count) in other.handshakeFailures { handshakeFailures[reason, default: 0] += count }
            accessLogDropped += other.accessLogDropped
            handshakesClosedAtCap += other.handshakesClosedAtCap
            idleClosedAtCap += other.idleClosedAtCap
            waitingClosedAtCap += other.waitingClosedAtCap
            acceptsDeferred += other.acceptsDeferred
            if kinds.count < other.kinds.count { kinds += [Int](repeating: 0, count: other.kinds.count - kinds.count) }
            for slot in other.kinds.indices { kinds[slot] += other.kinds[slot] }
        }

        var isEmpty: Bool {
            requests.isEmpty && siteRequests.isEmpty && handshakes == 0 && handshakeFailures.isEmpty
                && accessLogDropped == 0 && kinds.allSatisfy { $0 == 0 } && handshakesClosedAtCap == 0
                && idleClosedAtCap == 0 && waitingClosedAtCap == 0 && acceptsDeferred == 0
        }

        /// Back to zero, keeping the storage (the loop counts into the same totals again).
        mutating func reset() {
            requests.reset()
            siteRequests.removeAll(keepingCapacity: true)
            (bodyBytes, gzipResponses, identityResponses, handshakes, accessLogDropped) = (0, 0, 0, 0, 0)
            (handshakesClosedAtCap, idleClosedAtCap, waitingClosedAtCap, acceptsDeferred) = (0, 0, 0, 0)
            handshakeFailures.removeAll(keepingCapacity: true)
            for slot in kinds.indices { kinds[slot] = 0 }
        }
    }

    private let totals = Mutex(Totals())
    private let lost = Atomic<Int>(0)

    public init() {}

    /// Listeners of this loop that stopped accepting for good (`EventLoop.loseListener`): a
    /// server with one is not ready, whatever it serves on its open connections.
    public var listenersLost: Int { lost.load(ordering: .relaxed) }

    func noteListenerLost() {
        lost.add(1, ordering: .relaxed)
    }

    /// Called by the loop with what it counted since the last call.
    func fold(_ delta: inout Totals, openConnections: Int, handshakesInProgress: Int) {
        totals.withLock {
            $0.add(delta)
            $0.openConnections = openConnections
            $0.handshakesInProgress = handshakesInProgress
        }
        delta.reset()
    }

    public var snapshot: Totals { totals.withLock { $0 } }

    /// Every loop's totals added up.
    public static func sum(_ loops: [LoopStatistics]) -> Totals {
        var sum = Totals()
        for loop in loops {
            let snapshot = loop.snapshot
            sum.add(snapshot)
            sum.openConnections += snapshot.openConnections
            sum.handshakesInProgress += snapshot.handshakesInProgress
        }
        return sum
    }
}
