import Foundation

/// An https URL taken apart for `HTTPSClient`: host, port, and path with query. The one
/// parser of the URLs the server fetches (ACME's, the CDN watch's).
public struct HTTPSURL: Sendable, Equatable {
    public let host: String
    public let port: Int
    public let path: String

    /// nil unless `url` is https with a host.
    public init?(_ url: String) {
        guard let components = URLComponents(string: url), components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty
        else { return nil }
        self.host = host
        port = components.port ?? 443
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        self.path = path + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
    }
}
