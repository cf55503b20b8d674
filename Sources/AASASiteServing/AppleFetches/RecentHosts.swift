import AASALoop

/// The hosts Apple's fetcher asked one wildcard site for, the last `limit` of them, at O(1)
/// per fetch: anyone can send its User-Agent with a new host each time, so noting one must
/// not copy or scan the set (it runs under a lock every loop shares).
struct RecentHosts {
    let limit: Int
    /// Host → when last asked (seconds since the epoch).
    private(set) var seen: [String: Int] = [:]
    /// Every noting in order; an entry whose time is no longer the host's is stale.
    private var order: [(host: String, at: Int)] = []
    private var head = 0

    init(limit: Int) {
        self.limit = limit
    }

    mutating func note(_ host: String, at time: Int) {
        seen[host] = time
        order.append((host, time))
        while seen.count > limit, head < order.count {
            let oldest = order[head]
            head += 1
            if seen[oldest.host] == oldest.at { seen[oldest.host] = nil }
        }
        // Stale entries are dropped once they outnumber the live ones: amortized O(1).
        if head > limit || order.count > 2 * limit + 1 {
            order = order[head...].filter { seen[$0.host] == $0.at }
            head = 0
        }
    }

    /// Newest first (ties by name).
    var newestFirst: [String] {
        seen.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
    }
}
