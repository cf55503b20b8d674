import AASALoop
import AASASites
import Foundation

/// One page of sites for the status page and `/sites.json`: the site folders whose name or
/// an alias's contains the query, sorted by name, `pageSize` at a time (docs/serving.md,
/// "Many sites"). One parser of `q` and `page` for both forms.
struct SiteListing {
    static let pageSize = 100

    /// Lower-cased; empty lists every site.
    let query: String
    /// 1-based, clamped to the pages there are.
    let page: Int
    let pages: Int
    /// Site folders that match.
    let total: Int
    let records: [SiteRecord]
    /// Alias names by the site folder they point to, for the records on this page.
    let aliases: [String: [String]]

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
        self.aliases = aliases.mapValues { $0.sorted() }
    }
}
