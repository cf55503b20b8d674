import AASALoop
import AASASiteServing
import AASASites
import AssociationKit
import Foundation

/// Every entry of the sites folder as the last load found it: the site folders' records,
/// the aliases, and the entries skipped, each keyed by site key (`HostName.siteKey`). A reload changes
/// only the entries it re-read and shares every other record (and so every other prepared
/// file) with the snapshot before (docs/serving.md, "Many sites").
public struct SiteCatalog: Sendable {
    /// Site folders (not aliases) by name.
    init() {}

    public internal(set) var records: [String: SiteRecord] = [:]
    /// Alias name → the name of the site folder it points to: links and `site.json` names.
    public internal(set) var aliases: [String: String] = [:]
    /// The aliases that are links (the rest of `aliases` come from `site.json`).
    private var linkAliases: [String: String] = [:]
    /// The `site.json` aliases served, alias → folder (also in `aliases`).
    public private(set) var declaredAliases: [String: String] = [:]
    /// `site.json` aliases refused because another entry serves the name (`SITE014`).
    private var declarationProblems: [LoadProblem] = []
    /// Entries that look like sites but are not served: why.
    public internal(set) var skipped: [String: SkippedEntry] = [:]
    /// Each alias's entry (a record keeps its own), to settle two entries with one site key
    /// (`Example.COM.` and `example.com`).
    private var aliasEntries: [String: SiteDirectory.Site] = [:]

    /// Counts over every site and file, for the status page, `/metrics` and `/readyz`.
    public struct Counts: Sendable, Equatable {
        public var sites = 0
        public var aliases = 0
        public var valid = 0
        public var keptLastGood = 0
        public var refused = 0
        /// Files by kind: how many are valid and how many are not.
        public var validFiles: [FileCheck.Kind: Int] = [:]
        public var invalidFiles: [FileCheck.Kind: Int] = [:]
        /// Deleted files whose last copy still serves, and when the first of them stops
        /// (seconds since the epoch): the reload that ends it is scheduled for then.
        public var deletedFiles = 0
        public var graceEnds: Int?
        public var files: Int { validFiles.values.reduce(0, +) + invalidFiles.values.reduce(0, +) }
    }

    /// What one entry of the sites folder adds: only what the catalog keeps.
    enum Entry: Sendable {
        case record(SiteRecord)
        case alias(SiteDirectory.Site, target: String)
        case skipped(String, SkippedEntry)
        case none
    }

    /// Adds what one entry became (`SiteLoader.read`).
    mutating func insert(_ entry: Entry) {
        switch entry {
        case .record(let record):
            guard let kept = keep(record.site) else { return }
            aliases[kept.name] = nil
            linkAliases[kept.name] = nil
            aliasEntries[kept.name] = nil
            records[kept.name] = record
        case .alias(let site, let target):
            guard let kept = keep(site) else { return }
            records[kept.name] = nil
            aliases[kept.name] = target
            linkAliases[kept.name] = target
            aliasEntries[kept.name] = kept
        case .skipped(let name, let entry): skipped[name] = entry
        case .none: break
        }
    }

    /// `site` when it serves its key: no other entry holds the key, or it is preferred to the
    /// one that does (`SiteDirectory.prefers`); the other is then skipped as a collision
    /// (`SITE009`), keyed by its entry name. Nil when `site` itself loses.
    private mutating func keep(_ site: SiteDirectory.Site) -> SiteDirectory.Site? {
        guard let other = holder(of: site.name), other.entry != site.entry else { return site }
        guard SiteDirectory.prefers(site, over: other) else {
            skipped[site.entry] = SiteDirectory.collision(site, kept: other)
            return nil
        }
        skipped[other.entry] = SiteDirectory.collision(other, kept: site)
        return site
    }

    /// The entry serving `name` now.
    private func holder(of name: String) -> SiteDirectory.Site? { records[name]?.site ?? aliasEntries[name] }

    /// The entries of the sites folder that hold or lost the key `name`: read again with it.
    func entries(named name: String) -> [String] {
        var found: [String] = []
        if let holder = holder(of: name) { found.append(holder.entry) }
        for (entry, skip) in skipped where skip.code == .folderCollides && HostName.siteKey(folder: entry) == name {
            found.append(entry)
        }
        return found
    }

    /// `record`'s problems that are not about one of its association files: the folder's, its
    /// `site.json`'s, and the aliases it names that are refused.
    func folderProblems(of record: SiteRecord) -> [LoadProblem] {
        var problems = record.folderProblems + (record.settings?.problems ?? [])
        if record.settings != nil { problems += declarationProblems.filter { $0.site == record.name } }
        return problems
    }

    /// Removes whatever the entry `name` was.
    mutating func remove(_ name: String) {
        records[name] = nil
        aliases[name] = nil
        linkAliases[name] = nil
        skipped[name] = nil
        aliasEntries[name] = nil
    }

    /// Sets the `site.json` aliases again from every record's (after a scan or an update), by
    /// the rule `validate` applies (`AliasClaims`): a name a site folder or a link holds, or a
    /// wildcard covers, stays theirs (`SITE014`), and a name two sites claim stays with the one of
    /// `incumbents` (the served snapshot's `declaredAliases`) that still names it, else is served
    /// by neither (`SITE017`). Returns the names whose target changed. `root` is the sites folder
    /// as shown.
    @discardableResult
    mutating func settleDeclaredAliases(root: String, incumbents: [String: String]) -> Set<String> {
        let claims = records.values.filter { !$0.declaredAliases.isEmpty }.map { record in
            AliasClaims.Claim(
                site: record.name, path: root + "/" + record.site.entry + "/" + SiteSettings.fileName,
                aliases: record.declaredAliases, locations: record.settings?.locations ?? [:])
        }
        let settled = AliasClaims.settle(claims, incumbents: incumbents) { name in
            if records[name] != nil { return "the site folder \(name)" }
            return linkAliases[name].map { "the link \(aliasEntries[name]?.entry ?? name) (alias of \($0))" }
        }
        let next = settled.granted
        let problems = settled.problems
        var changed: Set<String> = []
        for (alias, target) in declaredAliases where next[alias] != target {
            changed.insert(alias)
            if linkAliases[alias] == nil { aliases[alias] = nil }
        }
        // Every one set again: an update may have removed a name it then found to be no entry.
        for (alias, target) in next {
            if declaredAliases[alias] != target { changed.insert(alias) }
            aliases[alias] = target
        }
        declaredAliases = next
        declarationProblems = problems
        return changed
    }

    /// The content served for `name` (a folder or an alias).
    func content(for name: String) -> SiteContent? {
        records[aliases[name] ?? name]?.content
    }

    /// The aliases pointing at each of `folders`.
    func aliases(of folders: Set<String>) -> [String] {
        folders.isEmpty ? [] : aliases.filter { folders.contains($0.value) }.map(\.key)
    }

    /// The served map, built from scratch (start-up and full rescans).
    func map() -> SiteMap<SiteContent> {
        var map = SiteMap<SiteContent>()
        map.reserveCapacity(records.count + aliases.count)
        for (name, record) in records {
            if let content = record.content { map.insert(content, named: name) }
        }
        for (alias, target) in aliases {
            if let content = records[target]?.content { map.insert(content, named: alias) }
        }
        return map
    }

    /// `previous` with the entries `names` set again from this catalog (an incremental reload).
    func map(updating previous: SiteMap<SiteContent>, names: some Sequence<String>) -> SiteMap<SiteContent> {
        var map = previous
        for name in names {
            map.remove(named: name)
            if let content = content(for: name) { map.insert(content, named: name) }
        }
        return map
    }

    /// Every problem, typed, ordered by site: the sites' (files, then folder), then the
    /// skipped entries' and the aliases that lead nowhere.
    func problems(root: URL) -> [LoadProblem] {
        var problems = records.values.lazy.filter {
            !$0.checks.allSatisfy(\.isClean) || !$0.folderProblems.isEmpty || $0.settings?.problems.isEmpty == false
        }
        .sorted { $0.name < $1.name }.flatMap(\.problems)
        for (name, skip) in skipped.sorted(by: { $0.key < $1.key }) {
            problems.append(
                LoadProblem(root.appendingPathComponent(name).path, skip.code, .warning, skip.reason, site: name))
        }
        problems += declarationProblems
        for (alias, target) in linkAliases.sorted(by: { $0.key < $1.key }) where records[target] == nil {
            problems.append(
                LoadProblem(
                    root.appendingPathComponent(alias).path, .aliasWithoutSite, .error,
                    "alias of \(target), which is not a site folder here", site: alias))
        }
        return problems
    }

    /// One pass over every record.
    func counts() -> Counts {
        var counts = Counts()
        counts.sites = records.count
        counts.aliases = aliases.count
        for record in records.values {
            switch record.state {
            case .valid: counts.valid += 1
            case .keptLastGood: counts.keptLastGood += 1
            case .refused: counts.refused += 1
            }
            for deleted in record.deletedFiles {
                counts.deletedFiles += 1
                counts.graceEnds = min(counts.graceEnds ?? deleted.servedUntil, deleted.servedUntil)
            }
            for check in record.checks {
                if check.isValid {
                    counts.validFiles[check.kind, default: 0] += 1
                } else {
                    counts.invalidFiles[check.kind, default: 0] += 1
                }
            }
        }
        return counts
    }
}
