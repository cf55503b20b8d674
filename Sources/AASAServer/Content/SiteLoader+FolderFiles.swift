import AASALoop
import AASASiteServing
import AASASites
import AASASystem
import AssociationKit

extension SiteLoader {
    /// A site's `well-known/` folder, opened beneath the site folder and listed: the names it
    /// may serve at `/.well-known/NAME` (regular files, read beneath it: a link leading out is
    /// refused as in the site folder), and why the others are not served.
    struct FolderFiles {
        private(set) var names: [String] = []
        private(set) var problems: [LoadProblem] = []
        private var folder: SiteFolder?
        private var shown = ""
        private var site = ""

        init() {}

        init(in parent: SiteFolder, shownAs shown: String, site: String) {
            (self.shown, self.site) = (shown, site)
            do throws(SystemError) {
                let folder = try SiteFolder(WellKnownFile.folderName, in: parent)
                self.folder = folder
                for entry in try folder.entries().sorted(by: { $0.name < $1.name }) {
                    // Folders inside are not served, nor hidden names (a ConfigMap's `..data`).
                    guard entry.kind != .directory, !entry.name.hasPrefix(".") else { continue }
                    guard WellKnownFile.isServable(folderFile: entry.name) else {
                        problems.append(
                            LoadProblem(
                                shown + "/" + entry.name, .misnamedFile, .warning,
                                "never served from \(WellKnownFile.folderName)/: the server has a kind for "
                                    + "/.well-known/\(entry.name); put the file in the site folder itself",
                                site: site))
                        continue
                    }
                    names.append(entry.name)
                }
            } catch {
                // Not a folder (a file named `well-known`), or unreadable: said, and nothing served.
                problems.append(
                    LoadProblem(
                        shown, .fileUnreadable, .warning,
                        "cannot read the \(WellKnownFile.folderName)/ folder: \(error.callAndErrno); its files "
                            + "are not served", site: site))
            }
        }

        /// Each file read and checked by the folder's row of the table of kinds.
        func read(signing: SignedFileContext) -> [FileCheck] {
            guard let folder else { return [] }
            return names.map { name in
                FileCheck(
                    named: name, in: folder, shownAs: shown + "/" + name, kind: .wellKnownFolder, site: site,
                    signing: signing)
            }
        }

        /// `well-known/NAME`: a file's name in the site folder (`FileCheck.name`).
        static func servedName(_ name: String) -> String { WellKnownFile.folderName + "/" + name }

        /// `NAME` of `well-known/NAME`.
        static func fileName(_ servedName: String) -> String {
            String(servedName.dropFirst(WellKnownFile.folderName.count + 1))
        }
    }
}

extension SiteLoader.Settings {
    /// `check`'s `bytes` made ready to serve with its kind's content type and cache policy
    /// (`siteCacheControl`: the site's `site.json` override); a kind whose copies are shared
    /// across sites comes from the `PreparedFilePool`.
    func prepare(_ check: FileCheck, _ bytes: [UInt8], siteCacheControl: String?) -> PreparedFile {
        let row = check.kind.file
        let contentType =
            check.kind == .wellKnownFolder
            ? WellKnownFile.contentType(forName: SiteLoader.FolderFiles.fileName(check.name)) : row.contentType
        let cacheControl = row.cacheControl(server: self.cacheControl, site: siteCacheControl)
        let make = {
            PreparedFile(
                body: bytes, lastModified: check.modified, cacheControl: cacheControl, contentType: contentType,
                signedContent: check.signedContent)
        }
        guard row.sharedAcrossSites else { return make() }
        return PreparedFilePool.shared.file(body: bytes, contentType: contentType, cacheControl: cacheControl, make)
    }
}
