/// Whether Apple's CDN has caught up with a domain's file (docs/usage.md, "Apple's CDN").
public enum CDNState: String, Sendable, CaseIterable {
    /// The CDN has the file served now.
    case inSync = "in_sync"
    /// The CDN has a version this server served before.
    case stale
    /// The CDN has content this server never served (another origin, another deployment).
    case differs
    /// The CDN answered 404 with Apple-Failure-Reason: Apple could not fetch from this origin.
    case failing
    /// The CDN could not be asked (connection, TLS, deadline, 5xx, too large).
    case error
    /// Not yet asked.
    case unchecked

    /// Out of sync in the sense of `aasa_cdn_out_of_sync_seconds`.
    public var isOutOfSync: Bool { self == .stale || self == .differs }
}
