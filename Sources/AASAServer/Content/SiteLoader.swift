import AssociationKit
import Foundation

/// Reads a sites directory into a `SiteTable`, validating every file first. Nothing is
/// served from a directory with an invalid file: the caller refuses to start (or keeps the
/// last good table on reload) and prints every diagnostic.
public enum SiteLoader {
    public struct Result: Sendable {
        /// Built only when every file is valid.
        public let table: SiteTable?
        public let checks: [FileCheck]
        /// Problems that are not about one file's content (the directory itself, aliases).
        public let problems: [String]
        public var isValid: Bool { table != nil }
    }

    public static func load(_ root: URL, cacheControl: String) -> Result {
        let directory: SiteDirectory
        do {
            directory = try SiteDirectory(root: root)
        } catch {
            return Result(table: nil, checks: [], problems: ["\(root.path): cannot read the sites directory: \(error.localizedDescription)"])
        }
        var checks: [FileCheck] = []
        var contents: [String: SiteContent] = [:]
        var problems: [String] = []
        for site in directory.sites where site.aliasOf == nil {
            let shown = root.appendingPathComponent(site.name).path
            var prepared: [FileCheck.Kind: PreparedFile] = [:]
            for kind in [FileCheck.Kind.apple, .android] {
                let path = site.folder.appendingPathComponent(kind.rawValue).path
                guard FileManager.default.fileExists(atPath: path) else { continue }
                let check = FileCheck(path: (shown as NSString).appendingPathComponent(kind.rawValue), kind: kind)
                checks.append(check)
                if check.isValid, let bytes = check.bytes {
                    prepared[kind] = PreparedFile(body: bytes, lastModified: check.modified, cacheControl: cacheControl)
                }
            }
            if prepared.isEmpty && !checks.contains(where: { $0.path.hasPrefix(shown + "/") }) {
                problems.append("\(shown): warning: the site folder has no \(FileCheck.Kind.apple.rawValue) or \(FileCheck.Kind.android.rawValue); it answers 404")
            }
            contents[site.name] = SiteContent(name: site.name, apple: prepared[.apple], android: prepared[.android])
        }
        var exact: [String: SiteContent] = [:]
        var wildcards: [String: SiteContent] = [:]
        for site in directory.sites {
            guard let content = contents[site.aliasOf ?? site.name] else {
                problems.append("\(root.appendingPathComponent(site.name).path): error: alias of \(site.aliasOf ?? "?"), which is not a site folder here")
                continue
            }
            if site.name.hasPrefix("*.") {
                wildcards[String(site.name.dropFirst(2))] = content
            } else {
                exact[site.name] = content
            }
        }
        let valid = checks.allSatisfy(\.isValid) && !problems.contains { $0.contains(": error: ") }
        return Result(table: valid ? SiteTable(exact: exact, wildcards: wildcards) : nil, checks: checks, problems: problems)
    }
}
