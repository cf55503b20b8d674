/// Where the store is (`--store`, docs/usage.md, "Several replicas, one store"): a folder, or a
/// PostgreSQL database named by a `postgres://` or `postgresql://` URI, kept as given for
/// libpq to read (its parameters, `sslmode` and `passfile` among them, and libpq's
/// environment apply).
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    case folder(String)
    case postgres(String)

    /// A URI with libpq's schemes is PostgreSQL; anything else a folder.
    public init(parsing text: String) {
        let lower = text.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
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
