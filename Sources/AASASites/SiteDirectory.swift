import AssociationKit
import Foundation

/// A sites directory: one folder per domain, symbolic links as aliases, `*.domain` folders
/// as wildcards (README, "Sites layout"). The listing is read once; a host is then looked up in
/// memory, so no Host value is ever turned into a file-system path.
public struct SiteDirectory: Sendable {
    public static let appleFileName = "apple-app-site-association"
    public static let androidFileName = "assetlinks.json"

    public struct Site: Sendable, Hashable {
        /// The folder name, lower-cased: a domain or `*.domain`.
        public var name: String
        /// The folder that holds the files (an alias's target).
        public var folder: URL
        /// For an alias, the site folder name it points to.
        public var aliasOf: String?
    }

    public let root: URL
    public let sites: [Site]
    /// Entries that look like sites but are not served, by lower-cased name: why, in a
    /// sentence (a link leading outside the sites folder, a dangling link).
    public let skipped: [String: String]
    private let map: SiteMap<Site>

    public init(root: URL) throws {
        self.root = root
        let fileManager = FileManager.default
        let names = try fileManager.contentsOfDirectory(atPath: root.path).sorted()
        let realRoot = root.resolvingSymlinksInPath().standardizedFileURL.path
        var sites: [Site] = []
        var skipped: [String: String] = [:]
        for name in names where !name.hasPrefix(".") {
            let entry = root.appendingPathComponent(name)
            let target = try? fileManager.destinationOfSymbolicLink(atPath: entry.path)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: entry.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                if let target, !fileManager.fileExists(atPath: entry.path) {
                    skipped[name.lowercased()] = "the link \(name) -> \(target) is dangling, so \(name) is not served"
                }
                continue
            }
            let resolved = entry.resolvingSymlinksInPath().standardizedFileURL
            let isLink = target != nil
            // A link to a sibling site folder is an alias. A link deeper into this directory
            // is the folder itself: Kubernetes mounts a ConfigMap as `name -> ..data/name`
            // with `..data` swapped on update. A link leading outside is never followed.
            let parent = resolved.deletingLastPathComponent().path
            let isAlias = isLink && parent == realRoot && !resolved.lastPathComponent.hasPrefix(".")
            if isLink && !isAlias && !resolved.path.hasPrefix(realRoot + "/") {
                skipped[name.lowercased()] =
                    "the link \(name) leads outside the sites folder (to \(resolved.path)), so \(name) is not served; "
                    + "move the folder into the sites folder, or link to a site folder there"
                continue
            }
            sites.append(
                Site(
                    name: name.lowercased(), folder: resolved,
                    aliasOf: isAlias ? resolved.lastPathComponent.lowercased() : nil))
        }
        self.sites = sites
        self.skipped = skipped
        var map = SiteMap<Site>()
        for site in sites { map.insert(site, named: site.name) }
        self.map = map
    }

    /// The site for a request's host: the exact folder, else the longest matching wildcard;
    /// `*.example.com` never answers for `example.com` itself (docs/association-files.md §2, Which file applies).
    public func site(forHost raw: String) -> Site? {
        guard let host = HostName.normalize(raw) else { return nil }
        return map.entry(forHost: host)
    }

    /// Files in a site folder named almost like an association file (`apple-app-site-association.json`,
    /// `assetlinks`), which the server never serves: each with the name it should have.
    public static func misnamedFiles(in folder: URL) -> [(name: String, expected: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap { name in
            for (expected, stem) in [(appleFileName, appleFileName), (androidFileName, "assetlinks")]
            where name != expected && name.lowercased().hasPrefix(stem) {
                return (name, expected)
            }
            return nil
        }
    }

    /// True when `folder` holds an association file directly (a site folder rather than a
    /// directory of sites).
    public static func isSiteFolder(_ folder: URL) -> Bool {
        let fileManager = FileManager.default
        return fileManager.fileExists(atPath: folder.appendingPathComponent(appleFileName).path)
            || fileManager.fileExists(atPath: folder.appendingPathComponent(androidFileName).path)
    }
}
