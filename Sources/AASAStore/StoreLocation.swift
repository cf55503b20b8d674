import Foundation

/// Where the store is (`--store`, docs/acme.md, "Several replicas, one store"): a folder, or a
/// PostgreSQL database named by a `postgres://` or `postgresql://` URI, kept as given for
/// libpq to read (its parameters, `sslmode` and `passfile` among them, and libpq's
/// environment apply).
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    case folder(String)
    case postgres(String)

    /// A URI with libpq's schemes is PostgreSQL; anything else a folder. libpq matches the
    /// schemes case-sensitively (its `uri_prefix_length`), so `POSTGRES://` is no URI to it
    /// and none here either: the same text must not mean a database here and a bad URI there.
    public init(parsing text: String) {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(text)
        } else {
            self = .folder(text)
        }
    }

    /// The place without a secret: "folder PATH", or "postgres USER@HOST:PORT/DB" (the
    /// password and the query's parameters left out).
    public var description: String {
        switch self {
        case .folder(let path): "folder \(path)"
        case .postgres(let uri): "postgres \(Self.redacted(uri))"
        }
    }

    /// `text` with every secret of `uri` (the URI whole, its password as written and decoded, a
    /// `password` parameter's value) replaced by `***`: libpq's messages about a malformed URI
    /// quote it (`invalid percent-encoded token: "…"`).
    public static func scrubbed(_ text: String, uri: String) -> String {
        var result = text.replacingOccurrences(of: uri, with: redacted(uri))
        for secret in secrets(of: uri) where !secret.isEmpty {
            result = result.replacingOccurrences(of: secret, with: "***")
        }
        return result
    }

    /// The password of `uri`'s user part and of its `password=` parameters, as written and
    /// percent-decoded.
    static func secrets(of uri: String) -> [String] {
        guard let scheme = uri.range(of: "://") else { return [] }
        let rest = uri[scheme.upperBound...]
        var found: [Substring] = []
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            found.append(authority[authority.index(after: colon)..<at])
        }
        if let query = rest.firstIndex(of: "?") {
            for parameter in rest[rest.index(after: query)...].split(separator: "&") {
                let parts = parameter.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == "password" { found.append(parts[1]) }
            }
        }
        return found.flatMap { secret in [String(secret), String(secret).removingPercentEncoding ?? ""] }
    }

    /// The URI's user, hosts and database, without the scheme, the password or the query.
    static func redacted(_ uri: String) -> String {
        guard let scheme = uri.range(of: "://") else { return "" }
        var rest = uri[scheme.upperBound...]
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        let path = rest[slash...]
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at]
            let name = user.firstIndex(of: ":").map { user[..<$0] } ?? user
            authority = name + "@" + authority[authority.index(after: at)...]
        }
        return String(authority + path)
    }
}
