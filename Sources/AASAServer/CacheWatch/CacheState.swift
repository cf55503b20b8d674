/// Whether a platform's cache (Apple's CDN, Google's view) has caught up with a domain's file
/// (docs/watches.md, "Apple's CDN" and "Google's view").
public enum CacheState: String, Sendable, CaseIterable {
    /// The cache has the file served now.
    case inSync = "in_sync"
    /// The cache has a version this server served before.
    case stale
    /// The cache has content this server never served (another origin, another deployment).
    case differs
    /// The platform says it could not fetch from this origin (Apple-Failure-Reason, Google's errorCode).
    case failing
    /// The cache could not be asked (connection, TLS, deadline, another status, not the expected answer).
    case error
    /// Not yet asked.
    case unchecked

    /// Out of sync in the sense of `aasa_cdn_out_of_sync_seconds` and `aasa_google_out_of_sync_seconds`.
    public var isOutOfSync: Bool { self == .stale || self == .differs }
}
