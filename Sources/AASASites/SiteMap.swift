import AssociationKit

/// The one exact/wildcard map of sites, keyed by normalized names: exact names in one hash
/// table, `*.domain` folders in another keyed by `domain`. A host is found by its exact name,
/// else by the longest wildcard that covers it; `*.example.com` never answers for
/// `example.com` itself (docs/sites.md, "Sites layout"). The sites folder listing and the served
/// table are both this map, so `match --sites` and the server pick the same site.
public struct SiteMap<Entry: Sendable>: Sendable {
    @usableFromInline private(set) var exact: [HostKey: Entry] = [:]
    @usableFromInline private(set) var wildcards: [HostKey: Entry] = [:]

    public init() {}

    /// Adds the entry for the folder `name` (a domain or `*.domain`, lower-cased).
    public mutating func insert(_ entry: Entry, named name: String) {
        if name.hasPrefix("*.") {
            wildcards[HostKey(String(name.dropFirst(2)))] = entry
        } else {
            exact[HostKey(name)] = entry
        }
    }

    /// Removes the entry of the folder `name`, if any.
    public mutating func remove(named name: String) {
        if name.hasPrefix("*.") {
            wildcards[HostKey(String(name.dropFirst(2)))] = nil
        } else {
            exact[HostKey(name)] = nil
        }
    }

    public mutating func reserveCapacity(_ count: Int) {
        exact.reserveCapacity(count)
    }

    /// `host` is a normalized host (`HostName.key`).
    public func entry(forHost host: String) -> Entry? {
        var host = host
        return host.withUTF8 { entry(forHost: $0) }
    }

    /// `host` is a normalized host's bytes (`HostName.withKey`): no allocation.
    @inlinable
    public func entry(forHost host: UnsafeBufferPointer<UInt8>) -> Entry? {
        HostName.lookup(host, exact: exact, wildcards: wildcards)
    }

    /// The entry of the folder named `name` (a domain or `*.domain`).
    public func entry(named name: String) -> Entry? {
        name.hasPrefix("*.") ? wildcards[HostKey(String(name.dropFirst(2)))] : exact[HostKey(name)]
    }

    public var count: Int { exact.count + wildcards.count }

    /// Every folder name, wildcards as `*.domain`, in no order.
    public var allNames: [String] { exact.keys.map(\.name) + wildcards.keys.map { "*." + $0.name } }
}
