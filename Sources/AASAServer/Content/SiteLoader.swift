import AASASites
import AssociationKit
import Foundation

/// Reads a sites directory into a `SiteTable`, validating every file first. A site with an
/// invalid file keeps what `previous` served for it (its last good files) or, new, serves
/// nothing; start-up refuses any invalid file, a reload applies the valid sites and reports
/// the others.
public enum SiteLoader {
    public struct Result: Sendable {
        /// Nil only when the directory cannot be read.
        public let table: SiteTable?
        public let checks: [FileCheck]
        /// Problems that are not about one file's content (the directory itself, aliases).
        public let problems: [LoadProblem]
        /// True when every file is valid and every alias resolves.
        public let isValid: Bool
        /// Sites with an invalid file that keep serving what the previous table had for them.
        public var keptSites: [String] = []
        /// Sites with an invalid file and nothing earlier to serve: they answer 404.
        public var refusedSites: [String] = []

        /// Every problem of the load, typed: each file's, then the folders' and aliases'.
        public var allProblems: [LoadProblem] { checks.flatMap(\.problems) + problems }
    }

    public static func load(_ root: URL, cacheControl: String, previous: SiteTable? = nil) -> Result {
        let directory: SiteDirectory
        do {
            directory = try SiteDirectory(root: root)
        } catch {
            return Result(
                table: nil, checks: [],
                problems: [LoadProblem(root.path, .sitesUnreadable, .error, unreadableReason(root))],
                isValid: false)
        }
        var checks: [FileCheck] = []
        var contents: [String: SiteContent] = [:]
        var problems: [LoadProblem] = []
        var kept: [String] = []
        var refused: [String] = []
        for site in directory.sites where site.aliasOf == nil {
            let shown = root.appendingPathComponent(site.name).path
            var prepared: [FileCheck.Kind: PreparedFile] = [:]
            var appleFile: AssociationFile?
            var androidFile: AssetLinks?
            var siteIsValid = true
            var siteChecks = 0
            for kind in [FileCheck.Kind.apple, .android] {
                let path = site.folder.appendingPathComponent(kind.rawValue).path
                guard FileManager.default.fileExists(atPath: path) else { continue }
                let check = FileCheck(
                    path: (shown as NSString).appendingPathComponent(kind.rawValue), kind: kind, site: site.name)
                checks.append(check)
                siteChecks += 1
                siteIsValid = siteIsValid && check.isValid
                if check.isValid, let bytes = check.bytes {
                    prepared[kind] = PreparedFile(body: bytes, lastModified: check.modified, cacheControl: cacheControl)
                    appleFile = appleFile ?? check.appleFile
                    androidFile = androidFile ?? check.androidFile
                }
            }
            // A file that would break a promised link never ships: failed expectations make
            // the site invalid, so start-up stops and a reload keeps the last good files.
            if FileManager.default.fileExists(
                atPath: site.folder.appendingPathComponent(ExpectationChecker.fileName).path)
            {
                let check = FileCheck(
                    path: (shown as NSString).appendingPathComponent(ExpectationChecker.fileName), kind: .expectations,
                    site: site.name, siblings: FileCheck.Siblings(apple: appleFile, android: androidFile))
                checks.append(check)
                siteIsValid = siteIsValid && check.isValid
            }
            for (name, expected) in SiteDirectory.misnamedFiles(in: site.folder) {
                problems.append(
                    LoadProblem(
                        (shown as NSString).appendingPathComponent(name), .misnamedFile, .warning,
                        "never served: the file must be named \(expected)", site: site.name))
            }
            if siteChecks == 0 {
                problems.append(
                    LoadProblem(
                        shown, .emptySite, .warning,
                        "the site folder has no \(FileCheck.Kind.apple.rawValue) or "
                            + "\(FileCheck.Kind.android.rawValue); it answers 404", site: site.name))
            }
            if siteIsValid {
                contents[site.name] = SiteContent(
                    name: site.name, apple: prepared[.apple], android: prepared[.android], appleFile: appleFile)
            } else if let last = previous?.content(named: site.name) {
                contents[site.name] = last
                kept.append(site.name)
            } else {
                refused.append(site.name)
            }
        }
        for (name, reason) in directory.skipped.sorted(by: { $0.key < $1.key }) {
            problems.append(
                LoadProblem(root.appendingPathComponent(name).path, .linkNotFollowed, .warning, reason, site: name))
        }
        var map = SiteMap<SiteContent>()
        let folders = Set(directory.sites.filter { $0.aliasOf == nil }.map(\.name))
        for site in directory.sites {
            guard let content = contents[site.aliasOf ?? site.name] else {
                if let target = site.aliasOf, !folders.contains(target) {
                    problems.append(
                        LoadProblem(
                            root.appendingPathComponent(site.name).path, .aliasWithoutSite, .error,
                            "alias of \(target), which is not a site folder here", site: site.name))
                }
                continue
            }
            map.insert(content, named: site.name)
        }
        let valid = checks.allSatisfy(\.isValid) && !problems.hasErrors
        var result = Result(
            table: SiteTable(map), checks: checks, problems: problems, isValid: valid)
        result.keptSites = kept
        result.refusedSites = refused
        return result
    }

    /// Why the sites folder cannot be listed, in our words rather than Foundation's.
    static func unreadableReason(_ root: URL) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) {
            return "cannot read the sites directory: no such folder (give --sites DIR, or sites in the config file)"
        }
        if !isDirectory.boolValue { return "cannot read the sites directory: it is a file, not a folder" }
        return "cannot read the sites directory: permission denied"
    }
}
