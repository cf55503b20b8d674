import AssociationKit

/// An https URL taken apart for `HTTPSClient`: host, port, and path with query. The URLs the
/// server fetches (ACME's, the CDN watch's), split by AssociationKit's `URLParts`.
public struct HTTPSURL: Sendable, Equatable {
    public let host: String
    public let port: Int
    public let path: String

    /// nil unless `url` is https with a host.
    public init?(_ url: String) {
        guard let parts = URLParts(url), parts.scheme == "https", !parts.host.isEmpty else { return nil }
        host = parts.host
        port = parts.port ?? 443
        path = parts.target
    }
}
