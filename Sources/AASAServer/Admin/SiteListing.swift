import AASALoop
import AASASites
import Foundation

/// One page of sites for the status page and `/sites.json`: the site folders whose name or
/// an alias's contains the query, sorted by name, `pageSize` at a time (docs/serving.md,
/// "Many sites"). One parser of `q` and `page` for both forms.
struct SiteListing {
    static let pageSize = 100
    /// Aliases listed per site at most (those the query matches first): a site may have
    /// thousands in its `site.json`, and a page stays small whatever they number; the rest
    /// are counted (`aliasCounts`) and found by searching.
    static let aliasesShown = 20
    /// A site's folder problems listed at most in `/sites.json`; the rest are counted.
    static let problemsShown = 50

    /// Lower-cased; empty lists every site.
    let query: String
    /// 1-based, clamped to the pages there are.
    let page: Int
    let pages: Int
    /// Site folders that match.
    let total: Int
    let records: [SiteRecord]
    /// Alias names by the site folder they point to, for the records on this page: at most
    /// `aliasesShown` each, those matching the query first, then by name.
    let aliases: [String: [String]]
    /// How many aliases each site on this page has in all.
    let aliasCounts: [String: Int]

    /// `only`, when given, keeps the listing to those site folders (the CDN watch's "not in
    /// sync" filter).
    init(_ snapshot: ServerSnapshot, query rawQuery: String?, page rawPage: String?, only: Set<String>? = nil) {
        let catalog = snapshot.catalog
        query = (rawQuery ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        var matched = Set<String>()
        for name in catalog.records.keys where query.isEmpty || name.contains(query) { matched.insert(name) }
        for (alias, target) in catalog.aliases where !query.isEmpty && alias.contains(query) {
            if catalog.records[target] != nil { matched.insert(target) }
        }
        if let only { matched.formIntersection(only) }
        let sorted = matched.sorted()
        total = sorted.count
        pages = max(1, (total + Self.pageSize - 1) / Self.pageSize)
        page = min(max(1, rawPage.flatMap { Int($0) } ?? 1), pages)
        let shown = sorted.dropFirst((page - 1) * Self.pageSize).prefix(Self.pageSize)
        records = shown.compactMap { catalog.records[$0] }
        let onPage = Set(shown)
        var aliases: [String: [String]] = [:]
        for (alias, target) in catalog.aliases where onPage.contains(target) {
            aliases[target, default: []].append(alias)
        }
        aliasCounts = aliases.mapValues(\.count)
        let query = query
        self.aliases = aliases.mapValues { names in
            // Partial selection: the shown few without sorting every alias a site has.
            let matching = query.isEmpty ? [] : names.filter { $0.contains(query) }
            let first = matching.sorted().prefix(Self.aliasesShown)
            let rest = Self.aliasesShown - first.count
            let others = rest > 0 ? Self.smallest(rest, of: names.lazy.filter { !first.contains($0) }) : []
            return Array(first) + others
        }
    }

    /// The `count` smallest of `names`, sorted, keeping only `count` at a time.
    static func smallest(_ count: Int, of names: some Sequence<String>) -> [String] {
        var kept: [String] = []
        for name in names {
            if kept.count == count, let last = kept.last, name >= last { continue }
            let index = kept.firstIndex { $0 > name } ?? kept.count
            kept.insert(name, at: index)
            if kept.count > count { kept.removeLast() }
        }
        return kept
    }
}
