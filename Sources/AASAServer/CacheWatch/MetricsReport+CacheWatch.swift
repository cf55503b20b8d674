extension MetricsReport {
    /// Out-of-sync series at most, the longest first, so cardinality stays bounded.
    static let outOfSyncLimit = 1000

    /// A cache watch's series, named `aasa_<prefix>_…`: every state and result present from
    /// the start, 0 when none (docs/watches.md, "Apple's CDN" and "Google's view").
    static func cacheWatch(_ watch: CacheWatcher, prefix: String, into text: inout PrometheusText) {
        let summary = watch.summary(limit: outOfSyncLimit)
        let title = watch.source.title
        text.family(
            "aasa_\(prefix)_sites", type: .gauge, help: "Domains by the state of \(title)'s copy of their file.")
        for state in CacheState.allCases {
            text.sample("aasa_\(prefix)_sites", [("state", state.rawValue)], Double(summary.states[state] ?? 0))
        }
        text.family(
            "aasa_\(prefix)_out_of_sync_seconds", type: .gauge,
            help: "How long \(title) has held another version, for stale or differing domains (longest 1,000).")
        for (domain, seconds) in summary.outOfSync {
            text.sample("aasa_\(prefix)_out_of_sync_seconds", [("site", domain)], Double(seconds))
        }
        // One series per failing domain, and only for those: the alert names the site.
        text.family(
            "aasa_\(prefix)_failing", type: .gauge,
            help: "1 for each domain \(title) reports it cannot fetch or read (first 1,000 by name).")
        for domain in summary.failing {
            text.sample("aasa_\(prefix)_failing", [("site", domain)], real: 1)
        }
        text.family("aasa_\(prefix)_checks_total", type: .counter, help: "\(title) checks, by the state they found.")
        for result in CacheState.allCases where result != .unchecked {
            text.sample(
                "aasa_\(prefix)_checks_total", [("result", result.rawValue)],
                Double(summary.checks[result.rawValue] ?? 0))
        }
    }
}
