import AASATransport

/// One loop's connections waiting for an answer another thread brings (docs/ARCHITECTURE.md,
/// "The path of a request"): handshakes paused for a certificate being loaded, a challenge
/// being looked up or an on-demand order, and requests parked on a lookup. Each waits under
/// what it waits for (`WaitReason`), so a wake-up that brings one answer tries again only the
/// connections waiting for it, not every one; a new snapshot, rare, tries all. At most
/// `limit` wait: past it the one waiting longest of the client source with the most waiting
/// (`ClientSource`: an address, an IPv6 /64, or the /56 or /48 of a block spreading over its
/// /64s, as `SourceBlocks` counts them) leaves, to be closed at the end of the loop's
/// turn (`evicted`; not at once, as the connection being served may have answers in the loop's
/// output), so a flood of waits cannot make each answer cost the loop more, and a flood from
/// one source, even waiting for answers already on their way (which cost it no share of the
/// loader's or the lookups'), pushes out its own connections, not another client's. Touched by
/// the loop's thread only.
final class WaitingRoom {
    let limit: Int
    private var byReason: [WaitReason: [Connection]] = [:]
    /// Arrivals, oldest first, each with the ticket it was given: one whose connection has
    /// left (its ticket changed) is skipped when met, and the list is compacted as it grows.
    private var arrivals: [(connection: Connection, ticket: UInt64)] = []
    private var oldestArrival = 0
    private var nextTicket: UInt64 = 1
    private(set) var count = 0
    /// Connections waiting per source (the peer's `ClientSource.key`, or its block's).
    private var bySource: [UInt64: Int] = [:]
    /// Which source a peer is counted as: its own, or its IPv6 block's.
    private var blocks: SourceBlocks
    /// Connections that left past the limit, for the loop to close.
    var evicted: [Connection] = []

    /// `limit`: `limits.waitingConnections` (512 by default). A handshake waits at most its
    /// deadline, so it is reached only when hundreds wait at once on one loop.
    init(limit: Int) {
        self.limit = max(limit, 1)
        blocks = SourceBlocks(sources: self.limit)
    }

    var isEmpty: Bool { count == 0 }

    /// `connection` waits for `reason` (instead of what it waited for before). Returns the
    /// connection that left when the room was full (the longest waiting of the source with the
    /// most waiting, which may be `connection`'s own): it must be closed.
    func add(_ connection: Connection, for reason: WaitReason) -> Connection? {
        if let current = connection.waitingFor {
            if current == reason { return nil }
            remove(connection)
        }
        var evicted: Connection?
        if count >= limit {
            let leaving = leaving(for: connection)
            if leaving === connection { return connection }
            remove(leaving)
            evicted = leaving
        }
        connection.waitingFor = reason
        connection.waitTicket = nextTicket
        nextTicket += 1
        byReason[reason, default: []].append(connection)
        arrivals.append((connection, connection.waitTicket))
        let source = charged(connection)
        if bySource[source] == nil { blocks.opened(source) }
        bySource[source, default: 0] += 1
        connection.waitSource = source
        count += 1
        return evicted
    }

    /// `connection` waits no more (it closed).
    func remove(_ connection: Connection) {
        guard let reason = connection.waitingFor else { return }
        leave(connection)
        if var waiting = byReason[reason] {
            // Those waiting for one answer: few, but a flood may share one name.
            waiting.removeAll { $0 === connection }
            byReason[reason] = waiting.isEmpty ? nil : waiting
        }
        count -= 1
        compact()
    }

    /// The connections waiting for `reason`, who leave the room.
    func take(_ reason: WaitReason) -> [Connection] {
        guard let waiting = byReason.removeValue(forKey: reason) else { return [] }
        for connection in waiting { leave(connection) }
        count -= waiting.count
        compact()
        return waiting
    }

    /// Every connection waiting, in the order they came, who all leave the room.
    func takeAll() -> [Connection] {
        let waiting = arrivals[oldestArrival...].filter { $0.connection.waitTicket == $0.ticket }.map(\.connection)
        for connection in waiting { leave(connection) }
        byReason.removeAll()
        count = 0
        compact()
        return waiting
    }

    private func leave(_ connection: Connection) {
        connection.waitingFor = nil
        connection.waitTicket = 0
        let source = connection.waitSource
        guard let waiting = bySource[source] else { return }
        if waiting > 1 {
            bySource[source] = waiting - 1
        } else {
            bySource[source] = nil
            blocks.closed(source)
        }
    }

    /// The source `connection`'s peer is counted as now.
    private func charged(_ connection: Connection) -> UInt64 {
        blocks.charged(ClientSource.key(connection.peer)) { bySource[$0] != nil }
    }

    /// Who leaves a full room for `arriving`: the longest waiting of the source with the most
    /// waiting (of those tied, the one waiting longest), its own source counted with it. One
    /// pass over the sources and one over the arrivals, only when the room is full.
    private func leaving(for arriving: Connection) -> Connection {
        let own = charged(arriving)
        let most = bySource.values.max() ?? 0
        if (bySource[own] ?? 0) + 1 > most { return oldest { $0 == own } ?? arriving }
        return oldest { bySource[$0] == most } ?? arriving
    }

    /// The connection waiting longest whose source passes `test`.
    private func oldest(where test: (UInt64) -> Bool) -> Connection? {
        for arrival in arrivals[oldestArrival...]
        where arrival.connection.waitTicket == arrival.ticket && test(arrival.connection.waitSource) {
            return arrival.connection
        }
        return nil
    }

    /// Drops arrivals that left once they outnumber those waiting (each is dropped once).
    private func compact() {
        if count == 0 {
            arrivals.removeAll(keepingCapacity: arrivals.count <= 4 * limit)
            oldestArrival = 0
        } else if arrivals.count - oldestArrival > 2 * count + 64 {
            arrivals = arrivals[oldestArrival...].filter { $0.connection.waitTicket == $0.ticket }
            oldestArrival = 0
        }
    }
}
