import AssociationKit
import Foundation

/// Turns a command-line path into the association files to check: a file as is, a site
/// folder's files, or every site folder of a sites directory (aliases are checked through
/// the folder they point to, once). What is found but never served (a misnamed file, a link
/// leading outside the sites folder) comes back as warnings.
package enum AssociationFileFinder {
    package struct Problem: Error {
        package var reason: String
        /// What explains it, when something was found but is never served (`SITE003`, `SITE004`).
        package var warnings: [LoadProblem] = []
    }

    package struct Found {
        package var path: String
        package var kind: FileCheck.Kind
        /// A file of a site folder, read as the server reads it (`FileCheck`'s `confined`);
        /// false for a file named on the command line, whose links are followed.
        package var confined = true
        /// The site folder's name, for a file found in one: the domain a signed file's signer
        /// certificate must name.
        package var domain: String?
    }

    package struct Listing {
        package var files: [Found] = []
        package var warnings: [LoadProblem] = []
    }

    package static func files(at path: String) -> Result<Listing, Problem> {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(Problem(reason: "no such file or directory"))
        }
        guard isDirectory.boolValue else {
            return .success(Listing(files: [Found(path: path, kind: FileCheck.kind(ofFileAt: path), confined: false)]))
        }
        if SiteDirectory.isSiteFolder(url) || !SiteDirectory.misnamedFiles(in: url).isEmpty {
            let listing = site(url, shownAs: path)
            if listing.files.isEmpty {
                return .failure(
                    Problem(
                        reason:
                            "nothing to check: no \(SiteDirectory.appleFileName) or \(SiteDirectory.androidFileName) "
                            + "in the folder itself (see the warnings above)",
                        warnings: listing.warnings))
            }
            return .success(listing)
        }
        do {
            let directory = try SiteDirectory(root: url)
            var listing = Listing()
            for site in directory.sites where site.aliasOf == nil {
                let shown = (path as NSString).appendingPathComponent(site.entry)
                let found = Self.site(site.folder, shownAs: shown)
                listing.files += found.files
                listing.warnings += found.warnings
                if !found.files.contains(where: { FileCheck.Kind.served.contains($0.kind) }) {
                    // As `serve` reports it (SiteLoader): the folder answers 404.
                    listing.warnings.append(
                        LoadProblem(
                            shown, .emptySite, .warning,
                            "the site folder has no \(SiteDirectory.appleFileName) or "
                                + "\(SiteDirectory.androidFileName); it answers 404", site: site.name))
                }
            }
            for var problem in directory.settingsProblems {
                problem.path = (path as NSString).appendingPathComponent(problem.path)
                listing.warnings.append(problem)
            }
            for (name, skipped) in directory.skipped.sorted(by: { $0.key < $1.key }) {
                listing.warnings.append(
                    LoadProblem(
                        (path as NSString).appendingPathComponent(name), skipped.code, .warning, skipped.reason))
            }
            if listing.files.isEmpty {
                return .failure(
                    Problem(
                        reason:
                            "no \(SiteDirectory.appleFileName) or \(SiteDirectory.androidFileName) here, nor in any "
                            + "site folder below" + (listing.warnings.isEmpty ? "" : " (see the warnings above)"),
                        warnings: listing.warnings))
            }
            return .success(listing)
        } catch {
            return .failure(Problem(reason: "cannot list the directory: \(error.localizedDescription)"))
        }
    }

    package static func site(_ folder: URL, shownAs shown: String) -> Listing {
        var listing = Listing()
        for kind in FileCheck.Kind.inFolder
        where FileManager.default.fileExists(atPath: folder.appendingPathComponent(kind.rawValue).path) {
            listing.files.append(
                Found(
                    path: (shown as NSString).appendingPathComponent(kind.rawValue), kind: kind,
                    domain: HostName.siteKey(folder: folder.lastPathComponent)
                        ?? folder.lastPathComponent.lowercased()))
        }
        // The files of its `well-known/` folder that the server serves at /.well-known/NAME.
        let wellKnown = folder.appendingPathComponent(WellKnownFile.folderName)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: wellKnown.path)) ?? []
        for name in names.sorted() where WellKnownFile.isServable(folderFile: name) {
            var isFolder: ObjCBool = false
            guard
                FileManager.default.fileExists(
                    atPath: wellKnown.appendingPathComponent(name).path, isDirectory: &isFolder),
                !isFolder.boolValue
            else { continue }
            listing.files.append(
                Found(
                    path: (shown as NSString).appendingPathComponent(WellKnownFile.folderName + "/" + name),
                    kind: .wellKnownFolder, domain: listing.files.first?.domain))
        }
        for (name, expected) in SiteDirectory.misnamedFiles(in: folder) {
            listing.warnings.append(
                LoadProblem(
                    (shown as NSString).appendingPathComponent(name), .misnamedFile, .warning,
                    SiteDirectory.misnamedReason(name, expected: expected)))
        }
        return listing
    }
}
