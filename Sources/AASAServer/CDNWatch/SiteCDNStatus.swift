import AASASystem
import AASATransport

/// A site's line about Apple's CDN, for `/sites.json` and the status page: the watch's
/// state of the site's own name ("unchecked" with the watch off and for wildcard sites) and
/// the last fetch by Apple's fetcher. Times are ISO 8601 UTC; absent values are JSON null.
struct SiteCDNStatus: Encodable {
    struct AppleFetch: Encodable {
        let at: String
        let host: String
        let status: Int
        let etag: String?
        /// Whether the fetch came from a network configured as Apple's.
        let verified: Bool

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(at, forKey: .at)
            try container.encode(host, forKey: .host)
            try container.encode(status, forKey: .status)
            try container.encode(etag, forKey: .etag)
            try container.encode(verified, forKey: .verified)
        }

        enum CodingKeys: String, CodingKey { case at, host, status, etag, verified }
    }

    /// The watch's half, as `google` has it.
    let watched: SiteCacheStatus
    let lastAppleFetch: AppleFetch?
    /// For a wildcard site: the hosts Apple's fetcher asked, newest first.
    let appleFetchedHosts: [String]?

    init(site: String, state serverState: ServerState) {
        watched = SiteCacheStatus(site: site, watch: serverState.cdnWatch)
        lastAppleFetch = serverState.appleFetches.last(site: site).map {
            AppleFetch(
                at: HTTPDate.iso8601($0.at), host: $0.host, status: $0.status, etag: $0.etag, verified: $0.verified)
        }
        appleFetchedHosts = site.hasPrefix("*.") ? serverState.appleFetches.hosts(site: site) : nil
    }

    enum CodingKeys: String, CodingKey {
        case state, checkedAt, reason, details, outOfSyncSince, lastAppleFetch, appleFetchedHosts
    }

    /// Every key present, `null` when absent (the synthesized encoding would leave nil optionals out).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try watched.encode(into: &container)
        try container.encode(lastAppleFetch, forKey: .lastAppleFetch)
        if let appleFetchedHosts { try container.encode(appleFetchedHosts, forKey: .appleFetchedHosts) }
    }
}
