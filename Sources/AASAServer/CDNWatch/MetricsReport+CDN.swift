extension MetricsReport {
    /// Out-of-sync series at most, the longest first, so cardinality stays bounded.
    static let outOfSyncLimit = 1000

    /// Apple's fetches (always) and the CDN watch's series (with the watch on): every state
    /// and result present from the start, 0 when none.
    static func cdn(_ state: ServerState, into text: inout PrometheusText) {
        let fetches = state.appleFetches.counts()
        text.family(
            "aasa_apple_fetches_total", type: .counter,
            help: "Requests for the Apple file by Apple's fetcher (User-Agent), by status.")
        for status in Set(fetches.byStatus.keys).union([200]).sorted() {
            text.sample("aasa_apple_fetches_total", [("status", String(status))], Double(fetches.byStatus[status] ?? 0))
        }
        text.family(
            "aasa_apple_fetches_unknown_host_total", type: .counter,
            help: "Fetches by Apple's fetcher for a host no site serves.")
        text.sample("aasa_apple_fetches_unknown_host_total", [], Double(fetches.unknownHosts))
        guard let watch = state.cdnWatch else { return }
        let summary = watch.summary(limit: outOfSyncLimit)
        text.family("aasa_cdn_sites", type: .gauge, help: "Domains by the state of Apple's CDN copy of their file.")
        for cdnState in CDNState.allCases {
            text.sample("aasa_cdn_sites", [("state", cdnState.rawValue)], Double(summary.states[cdnState] ?? 0))
        }
        text.family(
            "aasa_cdn_out_of_sync_seconds", type: .gauge,
            help: "How long Apple's CDN has held another version, for stale or differing domains (longest 1,000).")
        for (domain, seconds) in summary.outOfSync {
            text.sample("aasa_cdn_out_of_sync_seconds", [("site", domain)], Double(seconds))
        }
        text.family("aasa_cdn_checks_total", type: .counter, help: "CDN checks, by the state they found.")
        for result in CDNState.allCases where result != .unchecked {
            text.sample(
                "aasa_cdn_checks_total", [("result", result.rawValue)], Double(summary.checks[result.rawValue] ?? 0))
        }
    }
}
