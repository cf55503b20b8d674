extension MetricsReport {
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
        if let watch = state.cdnWatch { cacheWatch(watch, prefix: "cdn", into: &text) }
    }
}
