import AASASites
import AssociationKit

/// Every site as served, looked up by request host in constant time through the one
/// exact/wildcard map (`SiteMap`). Immutable once built.
public final class SiteTable: Sendable {
    let map: SiteMap<SiteContent>
    /// Site names, aliases included, for status and logs.
    public let names: [String]

    init(_ map: SiteMap<SiteContent>) {
        self.map = map
        names = map.names
    }

    /// `host` is a normalized host (`HostName.key`). `*.example.com` serves `a.example.com`
    /// and `a.b.example.com` when they have no folder, never `example.com`.
    func site(forHost host: String) -> SiteContent? {
        map.entry(forHost: host)
    }

    public var count: Int { map.count }

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
        map.entry(named: name)
    }
}
