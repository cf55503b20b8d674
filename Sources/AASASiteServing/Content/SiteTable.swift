import AASALoop
import AASASites
import AssociationKit

/// Every site as served, looked up by request host in constant time through the one
/// exact/wildcard map (`SiteMap`). Immutable once built.
public final class SiteTable: Sendable {
    package let map: SiteMap<SiteContent>

    package init(_ map: SiteMap<SiteContent>) {
        self.map = map
    }

    /// `host` is a normalized host (`HostName.key`). `*.example.com` serves `a.example.com`
    /// and `a.b.example.com` when they have no folder, never `example.com`.
    package func site(forHost host: String) -> SiteContent? {
        map.entry(forHost: host)
    }

    /// The same for a host's bytes (`HostName.withKey`), without allocating.
    @inline(__always)
    func site(forHost host: UnsafeBufferPointer<UInt8>) -> SiteContent? {
        map.entry(forHost: host)
    }

    public var count: Int { map.count }

    /// Of `candidates` (or, when nil, every name either table has), those whose files differ
    /// from `other`'s or that only one of the two serves: what a reload changed.
    public func changedNames(since other: SiteTable, among candidates: Set<String>? = nil) -> [String] {
        let names = candidates ?? Set(map.allNames).union(other.map.allNames)
        return names.filter { name in
            switch (content(named: name), other.content(named: name)) {
            case (nil, nil): false
            case (let new?, let old?): new !== old && !new.servesSameFiles(as: old)
            default: true
            }
        }.sorted()
    }

    /// The content of the folder named `name` (a domain or `*.domain`).
    public func content(named name: String) -> SiteContent? {
        map.entry(named: name)
    }
}
