import AASATransport

/// The names waiting for the on-demand ask, shared out fairly between the clients that sent
/// them (docs/security.md, "The on-demand ask under a flood"): each source (`ClientSource`, an
/// IPv4 address or an IPv6 /64, or the /56 or /48 of a block spreading over its /64s, as
/// `SourceBlocks` counts them) keeps its newest `perSource` names, and the askers take one
/// name from each source in turn, its newest first. A client that sends a thousand made-up
/// names then costs what one that sends one real name does: one turn in the rotation. Past
/// `mostSources` sources, a new one takes the place of one chosen at random, so no set of
/// early senders can hold every place; a client that keeps asking for its name gets back in.
struct AskQueue {
    /// Names kept per source; a newer name replaces the oldest.
    static let perSource = 4
    /// Sources with names waiting at most.
    static let mostSources = 256

    private var waiting: [UInt64: [String]] = [:]
    /// Sources in the order they take turns; `cursor` is the next one's index.
    private var rotation: [UInt64] = []
    private var cursor = 0
    /// Every name waiting, and its source.
    private var sources: [String: UInt64] = [:]
    /// Which source a client is counted as: its own, or its IPv6 block's.
    private var blocks = SourceBlocks(sources: mostSources)

    var count: Int { sources.count }
    var isEmpty: Bool { sources.isEmpty }

    func contains(_ name: String) -> Bool { sources[name] != nil }

    /// Adds `name` from the client `source` (`ClientSource.key`; counted as `SourceBlocks` says)
    /// unless it waits already. Returns the names dropped to make room (they are asked again
    /// when a handshake names them again). `random` picks the source that leaves when there are
    /// too many (tests give it a fixed one).
    mutating func add(
        _ name: String, source client: UInt64, random: (Int) -> Int = { Int.random(in: 0..<$0) }
    ) -> [String] {
        guard sources[name] == nil else { return [] }
        let source = blocks.charged(client) { waiting[$0] != nil }
        var dropped: [String] = []
        if waiting[source] == nil {
            if rotation.count >= Self.mostSources {
                let index = random(rotation.count)
                dropped += remove(sourceAt: index)
            }
            rotation.append(source)
            blocks.opened(source)
        }
        var names = waiting[source] ?? []
        if names.count >= Self.perSource {
            let oldest = names.removeFirst()
            sources[oldest] = nil
            dropped.append(oldest)
        }
        names.append(name)
        waiting[source] = names
        sources[name] = source
        return dropped
    }

    /// The next source's newest name, the rotation moving on.
    mutating func take() -> String? {
        guard !rotation.isEmpty else { return nil }
        if cursor >= rotation.count { cursor = 0 }
        let source = rotation[cursor]
        guard var names = waiting[source], let name = names.popLast() else {
            _ = remove(sourceAt: cursor)
            return take()
        }
        sources[name] = nil
        if names.isEmpty {
            waiting[source] = nil
            blocks.closed(source)
            rotation.remove(at: cursor)
        } else {
            waiting[source] = names
            cursor += 1
        }
        return name
    }

    private mutating func remove(sourceAt index: Int) -> [String] {
        let source = rotation.remove(at: index)
        if index < cursor { cursor -= 1 }
        guard let names = waiting.removeValue(forKey: source) else { return [] }
        blocks.closed(source)
        for name in names { sources[name] = nil }
        return names
    }
}
