import AssociationKit

/// Every site, looked up by request host in constant time: exact names in a hash table,
/// wildcards by walking the host's parent domains (README, "Sites layout"). Immutable once built.
public final class SiteTable: Sendable {
    let exact: [String: SiteContent]
    let wildcards: [String: SiteContent]
    /// Site names, aliases included, for status and logs.
    public let names: [String]

    init(exact: [String: SiteContent], wildcards: [String: SiteContent]) {
        self.exact = exact
        self.wildcards = wildcards
        names = (Array(exact.keys) + wildcards.keys.map { "*." + $0 }).sorted()
    }

    /// `host` is lower-cased, without port or trailing dot. `*.example.com` serves
    /// `a.example.com` and `a.b.example.com` when they have no folder, never `example.com`.
    func site(forHost host: String) -> SiteContent? {
        HostName.lookup(host, exact: exact, wildcards: wildcards)
    }

    public var count: Int { exact.count + wildcards.count }

    /// The names (aliases included) whose files differ from `other`'s, or that only one of
    /// the two tables has: what a reload changed.
    public func changedNames(since other: SiteTable) -> [String] {
        Set(names).union(other.names).filter { name in
            let (new, old) = (content(named: name), other.content(named: name))
            return new?.apple?.etag != old?.apple?.etag || new?.android?.etag != old?.android?.etag
                || (new == nil) != (old == nil)
        }.sorted()
    }

    /// The content of the folder named `name` (a domain or `*.domain`).
    public func content(named name: String) -> SiteContent? {
        name.hasPrefix("*.") ? wildcards[String(name.dropFirst(2))] : exact[name]
    }
}
