import AASAServer
import Foundation

/// Turns a command-line path into the association files to check: a file as is, a site
/// folder's files, or every site folder of a sites directory (aliases are checked through
/// the folder they point to, once).
enum AssociationFileFinder {
    struct Problem: Error {
        var reason: String
    }

    struct Found {
        var path: String
        var kind: FileCheck.Kind
    }

    static func files(at path: String) -> Result<[Found], Problem> {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(Problem(reason: "no such file or directory"))
        }
        guard isDirectory.boolValue else {
            return .success([Found(path: path, kind: FileCheck.kind(ofFileAt: path))])
        }
        if SiteDirectory.isSiteFolder(url) { return .success(filesOfSite(url, shownAs: path)) }
        do {
            let directory = try SiteDirectory(root: url)
            let files = directory.sites.filter { $0.aliasOf == nil }.flatMap { site in
                filesOfSite(site.folder, shownAs: (path as NSString).appendingPathComponent(site.name))
            }
            if files.isEmpty {
                return .failure(Problem(reason: "no \(SiteDirectory.appleFileName) or \(SiteDirectory.androidFileName) here, nor in any site folder below"))
            }
            return .success(files)
        } catch {
            return .failure(Problem(reason: "cannot list the directory: \(error.localizedDescription)"))
        }
    }

    static func filesOfSite(_ folder: URL, shownAs shown: String) -> [Found] {
        var found: [Found] = []
        for kind in [FileCheck.Kind.apple, .android] where FileManager.default.fileExists(atPath: folder.appendingPathComponent(kind.rawValue).path) {
            found.append(Found(path: (shown as NSString).appendingPathComponent(kind.rawValue), kind: kind))
        }
        return found
    }
}
