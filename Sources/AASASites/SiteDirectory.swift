import AASASystem
import AssociationKit
import Foundation

/// A sites directory: one folder per domain, symbolic links as aliases, `*.domain` folders
/// as wildcards (docs/sites.md, "Sites layout"). The listing is read once; a host is then looked up in
/// memory, so no Host value is ever turned into a file-system path.
public struct SiteDirectory: Sendable {
    public static let appleFileName = "apple-app-site-association"
    public static let androidFileName = "assetlinks.json"

    public struct Site: Sendable, Hashable {
        /// The folder name as a site key (`HostName.siteKey`): a domain or `*.domain`.
        public var name: String
        /// The entry's name as it is in the sites folder.
        public var entry: String
        /// The folder that holds the files (an alias's target), links resolved.
        public var folderPath: String
        /// For an alias, the site folder name it points to.
        public var aliasOf: String?

        public var folder: URL { URL(fileURLWithPath: folderPath) }
    }

    /// What one entry of the sites folder is.
    public enum Entry: Sendable, Equatable {
        case site(Site)
        /// Looks like a site but is not served: why, in a sentence (a link leading outside
        /// the sites folder, a dangling link).
        case skipped(SkippedEntry)
        /// Not a site: gone, a file, or hidden.
        case none
    }

    public let root: URL
    public let sites: [Site]
    /// Entries that look like sites but are not served, by site key (by entry name when it
    /// has none, or when it lost to another folder for its key): why.
    public let skipped: [String: SkippedEntry]
    /// What the site folders' `site.json` files have wrong (`SITE002`, `SITE012`…`SITE015`),
    /// each with its path relative to the sites directory (`example.com/site.json`).
    public let settingsProblems: [LoadProblem]
    private let map: SiteMap<Site>

    public init(root: URL) throws {
        self.root = root
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        let realRoot = Self.realPath(of: root)
        var sites: [String: Site] = [:]
        var skipped: [String: SkippedEntry] = [:]
        for name in names {
            switch Self.examine(name, in: root.path, realRoot: realRoot) {
            case .site(let site):
                guard let other = sites[site.name] else {
                    sites[site.name] = site
                    break
                }
                let (kept, lost) = Self.prefers(site, over: other) ? (site, other) : (other, site)
                sites[site.name] = kept
                skipped[lost.entry] = Self.collision(lost, kept: kept)
            case .skipped(let entry): skipped[HostName.siteKey(folder: name) ?? name] = entry
            case .none: break
            }
        }
        settingsProblems = Self.addDeclaredAliases(to: &sites)
        self.sites = sites.values.sorted { ($0.entry, $0.name) < ($1.entry, $1.name) }
        self.skipped = skipped
        var map = SiteMap<Site>()
        for site in self.sites { map.insert(site, named: site.name) }
        self.map = map
    }

    /// Adds the aliases each site folder's `site.json` names, as `serve` does (`SiteCatalog`),
    /// by one rule (`AliasClaims`): a name a folder or link holds or a wildcard covers stays
    /// theirs, and a name two sites claim is served by neither. The problems found, with paths
    /// relative to the sites directory.
    private static func addDeclaredAliases(to sites: inout [String: Site]) -> [LoadProblem] {
        var problems: [LoadProblem] = []
        var claims: [AliasClaims.Claim] = []
        for site in sites.values.filter({ $0.aliasOf == nil }).sorted(by: { $0.name < $1.name }) {
            let path = site.entry + "/" + SiteSettings.fileName
            guard FileStatus(site.folderPath + "/" + SiteSettings.fileName, followingLinks: false) != nil else {
                continue
            }
            // Read beneath the folder as `serve` reads it: a link leading outside is not followed.
            let read = Result { () throws(SystemError) in
                try SiteFolder(path: site.folderPath).read(SiteSettings.fileName, limit: SiteSettings.readLimit)
            }
            guard case .success(.regular(_, let bytes)) = read else {
                problems.append(
                    LoadProblem(
                        path, .fileUnreadable, .error, "cannot read the file (or it is no regular file, or too large)",
                        site: site.name))
                continue
            }
            let settings = SiteSettings(bytes, path: path, site: site.name)
            problems += settings.problems
            claims.append(
                AliasClaims.Claim(
                    site: site.name, path: path, aliases: settings.aliases, locations: settings.locations))
        }
        let settled = AliasClaims.settle(claims) { name in
            sites[name].map { other in
                other.aliasOf.map { "the link \(other.entry) (alias of \($0))" } ?? "the site folder \(name)"
            }
        }
        for (alias, target) in settled.granted {
            guard let folder = sites[target] else { continue }
            sites[alias] = Site(name: alias, entry: folder.entry, folderPath: folder.folderPath, aliasOf: target)
        }
        return problems + settled.problems
    }

    /// The sites folder with every symbolic link resolved, as `examine` needs it.
    public static func realPath(of root: URL) -> String {
        root.resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// What the entry `name` of the sites folder `root` is, read with lstat(2) so a plain
    /// folder costs one system call; only links are resolved.
    /// `kind` is the entry's type when the listing already knows it (`FileStatus.Entry`).
    public static func examine(
        _ name: String, in root: String, realRoot: String, kind known: FileStatus.Kind? = nil
    ) -> Entry {
        guard !name.hasPrefix("."), !name.isEmpty, !name.contains("/") else { return .none }
        let path = root + "/" + name
        guard let kind = known ?? FileStatus(path, followingLinks: false)?.kind else { return .none }
        switch kind {
        case .directory:
            guard let key = HostName.siteKey(folder: name) else { return .skipped(notAHost(name)) }
            // The key shares the entry's storage when they are equal.
            return .site(Site(name: key == name ? name : key, entry: name, folderPath: realRoot + "/" + name))
        case .symbolicLink:
            break
        case .regular, .other:
            return .none
        }
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
        guard let followed = FileStatus(path) else {
            return .skipped(
                SkippedEntry(.linkNotFollowed, "the link \(name) -> \(target) is dangling, so \(name) is not served"))
        }
        guard followed.kind == .directory else { return .none }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL
        // A link to a sibling site folder is an alias. A link deeper into this directory
        // is the folder itself: Kubernetes mounts a ConfigMap as `name -> ..data/name`
        // with `..data` swapped on update. A link leading outside is never followed.
        let parent = resolved.deletingLastPathComponent().path
        let isAlias = parent == realRoot && !resolved.lastPathComponent.hasPrefix(".")
        if !isAlias && !resolved.path.hasPrefix(realRoot + "/") {
            return .skipped(
                SkippedEntry(
                    .linkNotFollowed,
                    "the link \(name) leads outside the sites folder (to \(resolved.path)), so \(name) is not served; "
                        + "move the folder into the sites folder, or link to a site folder there"))
        }
        guard let key = HostName.siteKey(folder: name) else { return .skipped(notAHost(name)) }
        let targetName = resolved.lastPathComponent
        return .site(
            Site(
                name: key, entry: name, folderPath: resolved.path,
                aliasOf: isAlias ? HostName.siteKey(folder: targetName) ?? targetName.lowercased() : nil))
    }

    /// `SITE008`: a folder (or link) no Host header can name.
    static func notAHost(_ name: String) -> SkippedEntry {
        SkippedEntry(
            .folderNotAHost,
            "\(name) is not a host name (letters, digits, -, _ and dots, or *. and those; no port), so no request "
                + "reaches it; rename the folder to the host it serves")
    }

    /// Of two entries with one site key, the one named as the key itself, else the first by
    /// name: the same whichever a listing or an inotify event gives first.
    public static func prefers(_ site: Site, over other: Site) -> Bool {
        if (site.entry == site.name) != (other.entry == other.name) { return site.entry == site.name }
        return site.entry < other.entry
    }

    /// `SITE009`: `lost` names the same host as `kept`, which serves it.
    public static func collision(_ lost: Site, kept: Site) -> SkippedEntry {
        SkippedEntry(
            .folderCollides,
            "\(lost.entry) names the same host as \(kept.entry) (\(kept.name)), which is served; "
                + "remove or merge \(lost.entry)")
    }

    /// The site for a request's host: the exact folder, else the longest matching wildcard;
    /// `*.example.com` never answers for `example.com` itself (docs/association-files.md §2, Which file applies).
    public func site(forHost raw: String) -> Site? {
        guard let host = HostName.normalize(raw) else { return nil }
        return map.entry(forHost: host)
    }

    /// Files in a site folder named almost like an association file (`apple-app-site-association.json`,
    /// `assetlinks`), or a `.well-known` folder, which the server never serves: each with the name
    /// it should have.
    public static func misnamedFiles(in folder: URL) -> [(name: String, expected: String)] {
        misnamedFiles(among: (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    }

    /// `misnamedFiles(in:)` for a folder already listed.
    public static func misnamedFiles(among names: [String]) -> [(name: String, expected: String)] {
        names.sorted().compactMap { name in
            for (expected, stem) in [(appleFileName, appleFileName), (androidFileName, "assetlinks")]
            where name != expected && name.lowercased().hasPrefix(stem) {
                return (name, expected)
            }
            // `.well-known/apple-app-site-association` copied from a web server's document root.
            return name.lowercased() == wellKnownFolder ? (name, appleFileName) : nil
        }
    }

    /// Why an entry of `misnamedFiles` is never served, and the fix (`SITE003`), the same words
    /// for `serve` and `validate`.
    public static func misnamedReason(_ name: String, expected: String) -> String {
        name.lowercased() == wellKnownFolder
            ? "never served: a site folder holds \(appleFileName) and \(androidFileName) directly (the server "
                + "answers /.well-known/… from there); move them out of \(name)/ into the site folder"
            : "never served: the file must be named \(expected)"
    }

    /// The folder a web server's document root has, which a site folder does not: the server
    /// maps `/.well-known/NAME` to the site folder's `NAME` (docs/sites.md, "Sites layout").
    public static let wellKnownFolder = ".well-known"

    /// True when `folder` holds a served file directly (a site folder rather than a
    /// directory of sites).
    public static func isSiteFolder(_ folder: URL) -> Bool {
        FileCheck.Kind.served.contains {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent($0.rawValue).path)
        }
    }
}
