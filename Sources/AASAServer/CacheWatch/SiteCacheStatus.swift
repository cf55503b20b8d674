import AASASystem

/// A site's line about a platform's cache (`google` on `/sites.json`, and the first half of
/// `cdn`): the watch's state of the site's own name ("unchecked" with the watch off and for
/// wildcard sites). Times are ISO 8601 UTC; absent values are JSON null.
struct SiteCacheStatus: Encodable {
    let state: CacheState
    let checkedAt: String?
    let reason: String?
    let details: String?
    let outOfSyncSince: String?

    init(site: String, watch: CacheWatcher?) {
        let watch = watch?.watch(site)
        state = watch?.state ?? .unchecked
        checkedAt = watch?.checkedAt.map(HTTPDate.iso8601)
        reason = watch?.reason
        details = watch?.details
        outOfSyncSince = watch?.outOfSyncSince.map(HTTPDate.iso8601)
    }

    enum CodingKeys: String, CodingKey { case state, checkedAt, reason, details, outOfSyncSince }

    /// Every key present, `null` when absent (the synthesized encoding would leave nil optionals out).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try encode(into: &container)
    }

    /// The same keys into a container with more of its own (`SiteCDNStatus`).
    func encode<Key: CodingKey>(into container: inout KeyedEncodingContainer<Key>) throws {
        let fields = [
            (CodingKeys.checkedAt, checkedAt), (.reason, reason), (.details, details),
            (.outOfSyncSince, outOfSyncSince),
            (.state, state.rawValue),
        ]
        for (name, value) in fields {
            guard let key = Key(stringValue: name.stringValue) else { continue }
            try container.encode(value, forKey: key)
        }
    }
}
