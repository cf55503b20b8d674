import AASATransport

extension StatusPage {
    /// A cache watch at the top: domains per state, the longest out of sync, and the link
    /// that keeps the sites listing to those not in sync (`?cdn=out-of-sync`, `?google=…`).
    static func cacheSection(_ watch: CacheWatcher, filtered: Bool) -> String {
        let summary = watch.summary(limit: 20)
        let source = watch.source
        let id = source.name
        var html =
            "<h2>\(escape(source.title))</h2>\n<p>Each domain at \(escape(source.shownRequest)), every "
            + "\(source.interval) s, \(source.ratePerMinute) requests a minute at most.</p>\n"
        switch watch.placement.load(ordering: .relaxed) {
        case 1: html += "<p id=\"\(id)-placement\">Run by this replica for all (the store's lock).</p>\n"
        case 2:
            html +=
                "<p id=\"\(id)-placement\">Run by another replica; these are its results, read from the store.</p>\n"
        default: break
        }
        html += "<table id=\"\(id)-states\"><tr>"
        html += CacheState.allCases.map { "<th>\($0.rawValue)</th>" }.joined() + "</tr><tr>"
        html +=
            CacheState.allCases.map { state in
                let count = summary.states[state] ?? 0
                let marker = state == .unchecked ? "none" : count == 0 || state == .inSync ? "ok" : "bad"
                return "<td class=\"\(marker)\" id=\"\(id)-\(state.rawValue)\">\(count)</td>"
            }.joined() + "</tr></table>\n"
        html +=
            filtered
            ? "<p>Sites below: only those not in sync. <a href=\"/\">All sites</a></p>\n"
            : "<p><a href=\"/?\(id)=out-of-sync\" id=\"\(id)-filter\">Only sites not in sync</a></p>\n"
        if !summary.outOfSync.isEmpty {
            html += "<table id=\"\(id)-out-of-sync\"><tr><th>Domain</th><th>Out of sync for</th></tr>\n"
            for (domain, seconds) in summary.outOfSync {
                html +=
                    "<tr><td>\(escape(domain))</td><td class=\"bad\">\(seconds / 3600) h "
                    + "\(seconds % 3600 / 60) min</td></tr>\n"
            }
            html += "</table>\n"
        }
        return html
    }

    /// One site's state in a cache, with the platform's reason (a cell's text).
    static func cacheText(_ status: SiteCacheStatus) -> String {
        let marker =
            switch status.state {
            case .inSync: "ok"
            // Neither good nor bad news: the watch is off, the site a wildcard, or not asked yet.
            case .unchecked: "none"
            case .stale, .differs, .failing, .error: "bad"
            }
        var text = "<span class=\"\(marker)\">\(status.state.rawValue)</span>"
        if let reason = status.reason { text += " \(escape(reason))" }
        if let since = status.outOfSyncSince { text += " since \(escape(since))" }
        return text
    }

    /// One site's line about Apple's CDN: the state, Apple's reason, and Apple's fetcher's last visit.
    static func cdnText(_ status: SiteCDNStatus) -> String {
        var text = cacheText(status.watched)
        if let fetch = status.lastAppleFetch {
            // Only a network configured as Apple's proves it; a User-Agent anyone can send.
            let who = fetch.verified ? "Apple's fetcher" : "a client that identified as Apple's fetcher"
            text += "<br>\(who) fetched \(escape(fetch.host)) at \(escape(fetch.at)): \(fetch.status)"
        }
        return text
    }
}
