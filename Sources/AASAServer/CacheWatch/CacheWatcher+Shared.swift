/// The watch's latest results as replicas share them through the store (docs/acme.md,
/// "Several replicas, one store"): the replica that runs the watch writes them, every other
/// replica reads them into its own books, so `/sites.json`, the status page and `/metrics`
/// say the same everywhere. One line per domain: name, state, when checked, out of sync
/// since, the reason (tabs and line breaks in it made spaces).
extension CacheWatcher {
    /// The results as the store keeps them (sorted, so an unchanged watch writes the same bytes).
    func sharedResults() -> String {
        books.withLock { books in
            books.domains.sorted { $0.key < $1.key }.map { name, watch in
                let reason = String((watch.reason ?? "").map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
                return [
                    name, watch.state.rawValue, watch.checkedAt.map(String.init) ?? "",
                    watch.outOfSyncSince.map(String.init) ?? "", String(reason.prefix(500)),
                ].joined(separator: "\t")
            }.joined(separator: "\n")
        }
    }

    /// Takes the results another replica wrote, for the domains this replica serves too
    /// (a line that does not read is skipped).
    func adopt(sharedResults text: String) {
        var results: [Substring: [Substring]] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 5 else { continue }
            results[fields[0]] = fields
        }
        books.withLock { books in
            for (name, var watch) in books.domains {
                guard let fields = results[Substring(name)], let state = CacheState(rawValue: String(fields[1])) else {
                    continue
                }
                watch.state = state
                watch.checkedAt = Int(fields[2])
                watch.outOfSyncSince = Int(fields[3])
                watch.reason = fields[4].isEmpty ? nil : String(fields[4])
                books.domains[name] = watch
            }
        }
    }
}
