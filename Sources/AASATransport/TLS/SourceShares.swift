/// Work that strangers can ask for (a store lookup of an ACME challenge, a certificate read
/// from disk), queued with a share per client (docs/security.md, "Work a stranger can queue"):
/// each source (`ClientSource`: an IPv4 address, an IPv6 /64, or the /56 or /48 of a block
/// spreading over its /64s, as `SourceBlocks` counts them) has at most `perSource` items
/// waiting or being worked on, at most `mostSources` sources have any, and the worker takes one
/// item of each source in turn. Past a share the item is refused, never queued in place of
/// another's: a flood from one address then holds `perSource` places and one turn a round,
/// and a client from elsewhere is served after at most one item of each other source. An item
/// already waiting is not added twice, whoever asks (its waiters share the one answer).
package struct SourceShares<Item: Hashable> {
    package let perSource: Int
    package let mostSources: Int

    /// Each source's items waiting, oldest first, and how many it has being worked on.
    private var waiting: [UInt64: (items: [Item], working: Int)] = [:]
    /// Sources with items waiting, in the order they take turns; `cursor` is the next one.
    private var rotation: [UInt64] = []
    private var cursor = 0
    /// Every item waiting or being worked on, and its source.
    private var owners: [Item: UInt64] = [:]
    /// Which source a client is counted as: its own, or its IPv6 block's.
    private var blocks: SourceBlocks

    package init(perSource: Int, mostSources: Int) {
        self.perSource = max(perSource, 1)
        self.mostSources = max(mostSources, 1)
        blocks = SourceBlocks(sources: self.mostSources)
    }

    /// Items waiting or being worked on.
    package var count: Int { owners.count }
    /// Items waiting (not yet taken).
    package var waitingCount: Int { rotation.reduce(0) { $0 + (waiting[$1]?.items.count ?? 0) } }
    package func contains(_ item: Item) -> Bool { owners[item] != nil }
    /// The source `item` is counted against (`SourceBlocks`), while it waits or is worked on.
    package func source(of item: Item) -> UInt64? { owners[item] }

    /// What `add` did.
    package enum Admission: Equatable {
        case added
        /// Waiting or being worked on already.
        case present
        /// The source has its share, or too many sources have some.
        case refused
    }

    /// Queues `item` for the client `source` (`ClientSource.key`) within its share, the share
    /// of the source it is counted as (`SourceBlocks`).
    package mutating func add(_ item: Item, source client: UInt64) -> Admission {
        if owners[item] != nil { return .present }
        let source = blocks.charged(client) { waiting[$0] != nil }
        let opened = waiting[source] == nil
        var entry = waiting[source] ?? ([], 0)
        guard entry.items.count + entry.working < perSource else { return .refused }
        if entry.items.isEmpty {
            if entry.working == 0 && waiting.count >= mostSources { return .refused }
            rotation.append(source)
        }
        entry.items.append(item)
        waiting[source] = entry
        owners[item] = source
        if opened { blocks.opened(source) }
        return .added
    }

    /// The next source's oldest item, the rotation moving on; it counts against its source's
    /// share until `finish`.
    package mutating func take() -> Item? {
        guard !rotation.isEmpty else { return nil }
        if cursor >= rotation.count { cursor = 0 }
        let source = rotation[cursor]
        guard var entry = waiting[source], !entry.items.isEmpty else {
            rotation.remove(at: cursor)
            return take()
        }
        let item = entry.items.removeFirst()
        entry.working += 1
        waiting[source] = entry
        if entry.items.isEmpty {
            rotation.remove(at: cursor)
        } else {
            cursor += 1
        }
        return item
    }

    /// `item`'s work is done: its place is free.
    package mutating func finish(_ item: Item) {
        guard let source = owners.removeValue(forKey: item), var entry = waiting[source] else { return }
        entry.working = max(entry.working - 1, 0)
        if entry.items.isEmpty && entry.working == 0 {
            waiting[source] = nil
            blocks.closed(source)
        } else {
            waiting[source] = entry
        }
    }

    /// Everything waiting goes (not what is being worked on); returns it.
    package mutating func removeWaiting() -> [Item] {
        var removed: [Item] = []
        for source in rotation {
            guard var entry = waiting[source] else { continue }
            removed += entry.items
            for item in entry.items { owners[item] = nil }
            entry.items = []
            waiting[source] = entry.working == 0 ? nil : entry
            if entry.working == 0 { blocks.closed(source) }
        }
        rotation = []
        cursor = 0
        return removed
    }
}
