import AASALoop
import AASASignedData
import AASASiteServing
import AASASites
import AASASystem
import AASATransport
import AssociationKit
import Dispatch
import Foundation
import Synchronization

/// Reads site folders into `SiteRecord`s, validating every file first. A site with an
/// invalid file keeps what its previous record served (its last good files) or, new,
/// serves nothing. A folder whose files are unchanged since they were read keeps its
/// record as is, so a rescan costs a stat(2) per file and a reload re-reads only what changed
/// (docs/serving.md, "Many sites").
public enum SiteLoader {
    /// Called now and then during a long scan with the folders done and the total.
    public typealias Progress = @Sendable (_ done: Int, _ total: Int) -> Void

    /// What every folder of one load is read with.
    struct Settings: Sendable {
        let cacheControl: String
        /// Seconds a deleted served file keeps serving (`--deleted-file-grace`; 0: none).
        let deletedFileGrace: Int
        /// Seconds since the epoch when the load began: one clock for every folder.
        let now: Double
        /// The watcher each folder is watched by just before it is read, at start-up
        /// (`FileWatcher.Setup.roots`); nil when the watcher set its watches up itself.
        var watcher: FileWatcher?

        init(cacheControl: String, deletedFileGrace: Int, now: Double = Date().timeIntervalSince1970) {
            self.cacheControl = cacheControl
            self.deletedFileGrace = deletedFileGrace
            self.now = now
        }
    }

    /// Every entry of `root`, read on all cores, or why the folder cannot be listed: a
    /// listing that failed is never an empty sites folder.
    static func scan(
        _ root: URL, settings: Settings, previous: SiteCatalog?, progress: Progress? = nil
    ) throws(SystemError) -> SiteCatalog {
        let names = try FileStatus.listing(of: root.path)
        let folder = Folder(root)
        let chunkSize = 256
        let chunks = (names.count + chunkSize - 1) / chunkSize
        let done = Atomic<Int>(0)
        let lastReport = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)
        let results = ConcurrentMap.map(chunks) { chunk in
            let range = (chunk * chunkSize)..<min(names.count, (chunk + 1) * chunkSize)
            let found = names[range].map { listed in
                read(listed.name, kind: listed.kind, root: folder, settings: settings, previous: previous)
            }
            let finished = done.add(range.count, ordering: .relaxed).newValue
            // A progress line every few seconds, from whichever thread passes the mark first.
            let now = DispatchTime.now().uptimeNanoseconds
            let last = lastReport.load(ordering: .relaxed)
            if let progress, now &- last >= 3_000_000_000,
                lastReport.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged
            {
                progress(finished, names.count)
            }
            return found
        }
        var catalog = SiteCatalog()
        catalog.records.reserveCapacity(names.count)
        for found in results.joined() { catalog.insert(found) }
        // A full rescan (SIGHUP, a swapped root) keeps the served aliases with their sites.
        catalog.settleDeclaredAliases(root: root.path, incumbents: previous?.declaredAliases ?? [:])
        return catalog
    }

    /// What the sites-folder entry `name` is now, its folder read (or its record kept, when
    /// nothing in it changed); `kind` is the listing's type for it, when known.
    static func read(
        _ name: String, kind: FileStatus.Kind? = nil, root: Folder, settings: Settings, previous: SiteCatalog?
    ) -> SiteCatalog.Entry {
        switch SiteDirectory.examine(name, in: root.path, realRoot: root.realPath, kind: kind) {
        case .site(let site):
            guard let target = site.aliasOf else {
                let previous = previous?.records[site.name]
                // Gone between the listing and the open: nothing to serve, as if never listed.
                return load(site, root: root, settings: settings, previous: previous).map { .record($0) } ?? .none
            }
            return .alias(site, target: target)
        case .skipped(let skipped): return .skipped(HostName.siteKey(folder: name) ?? name, skipped)
        case .none:
            // A site whose entry lstat(2) cannot read (EACCES, EIO) is not gone: it keeps its files.
            guard let record = previous?.records[HostName.siteKey(folder: name) ?? name] else { return .none }
            do throws(SystemError) {
                _ = try Posix.status(root.path + "/" + name, followingLinks: false)
            } catch let error where error.errno != ENOENT && error.errno != ENOTDIR {
                return .record(unreadable(record.site, root: root, error: error, previous: record, now: settings.now))
            } catch {}
            return .none
        }
    }

    /// `catalog` with the sites-folder entries `entries` (as named on disk) read again: what
    /// inotify reported. Returns the names whose served content may have changed: the entries
    /// and the aliases of those that are folders.
    static func update(
        _ catalog: SiteCatalog, root: URL, entries: Set<String>, settings: Settings
    ) -> (catalog: SiteCatalog, affected: Set<String>) {
        var next = catalog
        var affected: Set<String> = []
        let folder = Folder(root)
        // Entries sharing a site key are read again together, so which one serves it does not
        // depend on the order of events (`SiteDirectory.prefers`).
        var reread: Set<String> = []
        for entry in entries {
            let name = HostName.siteKey(folder: entry) ?? entry
            reread.insert(entry)
            reread.formUnion(catalog.entries(named: name))
            next.remove(name)
            affected.insert(name)
        }
        for entry in reread.sorted() {
            // A loser is kept by entry name; a record by key was removed above.
            next.skipped[entry] = nil
            next.insert(read(entry, root: folder, settings: settings, previous: catalog))
        }
        affected.formUnion(next.settleDeclaredAliases(root: root.path, incumbents: catalog.declaredAliases))
        affected.formUnion(next.aliases(of: affected))
        return (next, affected)
    }

    /// The sites folder as given and with its links resolved, computed once per load.
    struct Folder: Sendable {
        let path: String
        let realPath: String

        init(_ root: URL) {
            path = root.path
            realPath = SiteDirectory.realPath(of: root)
        }
    }

    /// Reads and checks one site folder, or returns `previous` when nothing in it changed; nil
    /// when the folder is gone (ENOENT, ENOTDIR). A folder that cannot be opened or listed
    /// (EMFILE, ENFILE, EACCES, EIO) is never read as empty: it keeps `previous` (`SITE010`).
    static func load(
        _ site: SiteDirectory.Site, root: Folder, settings: Settings, previous: SiteRecord?
    ) -> SiteRecord? {
        // Opened once: the listing and every file are read relative to this descriptor, so a
        // link swapped in after a check cannot redirect a read (docs/serving.md).
        let folder: SiteFolder
        let names: [String]
        settings.watcher?.watchSite(site.entry, folder: site.folderPath)
        do throws(SystemError) {
            folder = try SiteFolder(path: site.folderPath, followingLink: false)
            names = try folder.entries().map(\.name)
        } catch {
            if error.errno == ENOENT || error.errno == ENOTDIR { return nil }
            return unreadable(site, root: root, error: error, previous: previous, now: settings.now)
        }
        let present = FileCheck.Kind.inFolder.filter { names.contains($0.rawValue) }
        let shown = root.path + "/" + site.entry
        let hasWellKnown = names.contains(WellKnownFile.folderName)
        if hasWellKnown { settings.watcher?.watchWellKnown(site.entry, folder: site.folderPath) }
        let wellKnown =
            hasWellKnown
            ? FolderFiles(in: folder, shownAs: shown + "/" + WellKnownFile.folderName, site: site.name)
            : FolderFiles()
        let presentNames = present.map(\.rawValue) + wellKnown.names.map(FolderFiles.servedName)
        let misnamed = SiteDirectory.misnamedFiles(among: names)
        let deleted = graced(previous, present: presentNames, settings: settings)
        let hasSettings = names.contains(SiteSettings.fileName)
        if let previous, !previous.isUnreadable, previous.deletedFiles.isEmpty,
            previous.isCurrent(
                site: site, present: presentNames, misnamed: misnamed.map(\.name), hasSettings: hasSettings)
        {
            return previous
        }
        let (siteFile, siteFileStatus) =
            hasSettings ? Self.siteFile(in: folder, shownAs: shown, site: site.name, previous: previous) : (nil, nil)
        // A signed file's signer is checked against the system's roots (SSL_CERT_FILE and
        // SSL_CERT_DIR choose others, X509_STORE_set_default_paths(3)) and the site's name.
        let signing = SignedFileContext(
            reader: CMSReader.reader(trusting: .system), domain: site.name, now: Int(time(nil)))
        var checks: [FileSummary] = []
        var prepared: [FileCheck.Kind: PreparedFile] = [:]
        var siblings = FileCheck.Siblings(apple: nil, android: nil)
        var fallback: SiteFallback?
        let prepare = { (check: FileCheck, bytes: [UInt8]) in
            settings.prepare(check, bytes, siteCacheControl: siteFile?.cacheControl[check.kind])
        }
        for kind in present {
            // A file that would break a promised link never ships: expectations are checked
            // against the site's files, and a failed one makes the site invalid.
            let check = FileCheck(
                named: kind.rawValue, in: folder, shownAs: shown + "/" + kind.rawValue, kind: kind, site: site.name,
                siblings: kind == .expectations ? siblings : nil, signing: signing)
            checks.append(FileSummary(check))
            // Read after the association files, whose matchers its pages need.
            if kind == .fallback, check.isValid, let file = check.fallbackFile, let bytes = check.bytes {
                fallback = SiteFallback(file: file, bytes: bytes, apple: siblings.apple, android: siblings.android)
            }
            if check.isValid, let bytes = check.bytes, kind.file.isServed {
                prepared[kind] = prepare(check, bytes)
                siblings.apple = siblings.apple ?? check.appleFile
                siblings.android = siblings.android ?? check.androidFile
            }
        }
        var folderFiles: [String: PreparedFile] = [:]
        for check in wellKnown.read(signing: signing) {
            checks.append(FileSummary(check))
            if check.isValid, let bytes = check.bytes {
                folderFiles[FolderFiles.fileName(check.name)] = prepare(check, bytes)
            }
        }
        var problems = misnamed.map { name, expected in
            LoadProblem(
                shown + "/" + name, .misnamedFile, .warning, SiteDirectory.misnamedReason(name, expected: expected),
                site: site.name)
        }
        problems += wellKnown.problems
        // A deleted file's last copy serves out its grace (`SITE011`).
        for file in deleted {
            if let kind = FileCheck.Kind(rawValue: file.name), kind != .wellKnownFolder {
                prepared[kind] = previous?.content?.file(kind)
            } else {
                folderFiles[FolderFiles.fileName(file.name)] = previous?.content?.file(named: file.name)
            }
            if file.kind == .fallback { fallback = previous?.content?.fallback }
            problems.append(
                LoadProblem(
                    shown + "/" + file.name, .fileDeleted, .warning,
                    "deleted; its last copy serves until \(HTTPDate.format(file.servedUntil)) "
                        + "(--deleted-file-grace), then it answers 404; put the file back to keep serving it",
                    site: site.name))
        }
        let serving = presentNames + deleted.map(\.name)
        if !serving.contains(where: { FileCheck.Kind(rawValue: $0)?.file.isServed ?? true }) {
            problems.append(
                LoadProblem(
                    shown, .emptySite, .warning,
                    "the site folder has no \(FileCheck.Kind.apple.rawValue) or "
                        + "\(FileCheck.Kind.android.rawValue); it answers 404", site: site.name))
        }
        let state: SiteRecord.State
        var content: SiteContent?
        let changePassword = siteFile?.changePassword.map {
            PreparedRedirect(location: $0, cacheControl: settings.cacheControl)
        }
        if checks.allSatisfy(\.isValid) {
            state = .valid
            let fresh = SiteContent(
                name: site.name, files: prepared, folderFiles: folderFiles, changePassword: changePassword,
                fallback: fallback)
            // The same bytes read again (a rescan after every inode changed) share the old object.
            content = previous?.content.flatMap { $0.servesSameFiles(as: fresh) ? $0 : nil } ?? fresh
        } else {
            content = previous?.content.map { without(absent: serving, $0) }
            state = content == nil ? .refused : .keptLastGood
        }
        return SiteRecord(
            site: site, content: content, checks: checks, folderProblems: problems, state: state,
            misnamed: misnamed.map(\.name), deletedFiles: deleted, settings: siteFile,
            settingsStatus: siteFileStatus)
    }

    /// The folder's `site.json`, read relative to the folder's descriptor as every file is. A
    /// file that cannot be read keeps the aliases `previous` had (`SITE002`), as a file keeps
    /// its last good copy.
    static func siteFile(
        in folder: SiteFolder, shownAs shown: String, site: String, previous: SiteRecord?
    ) -> (SiteSettings, FileStatus?) {
        let path = shown + "/" + SiteSettings.fileName
        let read = folder.read(SiteSettings.fileName, limit: SiteSettings.readLimit)
        let reason: String
        switch read {
        case .regular(let status, let bytes):
            var settings = SiteSettings(bytes, path: path, site: site)
            // Not JSON, or not the expected shape: the aliases named before stay, as a file's
            // last good copy does.
            if let previous = previous?.settings,
                settings.problems.contains(where: { $0.code == LoadProblem.Code.siteFileNotJSON.rawValue })
            {
                (settings.aliases, settings.locations) = (previous.aliases, previous.locations)
                (settings.changePassword, settings.cacheControl) = (previous.changePassword, previous.cacheControl)
            }
            return (settings, status)
        case .tooLarge(let status): reason = "larger than \(SiteSettings.readLimit) bytes (\(status.size))"
        case .notRegular: reason = "not a regular file"
        case .linkRefused(let why): reason = why
        case .changing: reason = FileRead.changingReason
        case .failed(let error, _): reason = "cannot read the file: " + error.callAndErrno
        }
        var kept = previous?.settings ?? SiteSettings()
        kept.problems = [
            LoadProblem(path, .fileUnreadable, .error, reason + "; the aliases it named before stay", site: site)
        ]
        return (kept, nil)
    }

    /// A folder that could not be opened or listed: its last good files, and why (`SITE010`),
    /// less a deleted file whose grace has ended by `now` (else the reload that ends a grace
    /// would keep it, and be scheduled again at once, for as long as the folder is unreadable).
    private static func unreadable(
        _ site: SiteDirectory.Site, root: Folder, error: SystemError, previous: SiteRecord?, now: Double
    ) -> SiteRecord {
        let deleted = previous?.deletedFiles.filter { Double($0.servedUntil) > now } ?? []
        let ended = Set(previous?.deletedFiles.map(\.name) ?? []).subtracting(deleted.map(\.name))
        let kept = ((previous?.content?.servedNames ?? []) + [FileCheck.Kind.fallback.rawValue]).filter {
            !ended.contains($0)
        }
        let content = previous?.content.map { without(absent: kept, $0) }
        let problem = LoadProblem(
            root.path + "/" + site.entry, .siteUnreadable, .error,
            "cannot read the site folder: \(error.callAndErrno); "
                + (content == nil ? "it serves nothing until it can be read" : "its last good files keep serving"),
            site: site.name)
        return SiteRecord(
            site: site, content: content, checks: previous?.checks ?? [], folderProblems: [problem],
            state: content == nil ? .refused : .keptLastGood, misnamed: previous?.misnamed ?? [],
            deletedFiles: deleted, settings: previous?.settings)
    }

    /// The files `previous` served that are no longer in the folder (`present`: names as
    /// `FileCheck.name`) and whose grace has not ended: the load that first finds one gone
    /// sets its end, later loads keep it.
    static func graced(_ previous: SiteRecord?, present: [String], settings: Settings) -> [DeletedFile] {
        guard settings.deletedFileGrace > 0, let previous, let content = previous.content else { return [] }
        let served = content.servedNames + (content.fallback != nil ? [FileCheck.Kind.fallback.rawValue] : [])
        return served.compactMap { name in
            guard !present.contains(name) else { return nil }
            let known = previous.deletedFiles.first { $0.name == name }
            let end = known?.servedUntil ?? Int((settings.now + Double(settings.deletedFileGrace)).rounded(.up))
            guard Double(end) > settings.now else { return nil }
            let kind = FileCheck.Kind(rawValue: name) ?? .wellKnownFolder
            return DeletedFile(
                kind: kind, name: name, deletedAt: known?.deletedAt ?? Int(settings.now), servedUntil: end)
        }
    }

    /// `content` with only the files named in `serving` (the files in the folder or in their
    /// grace): an invalid site keeps its last good files, not a file deleted for good.
    private static func without(absent serving: [String], _ content: SiteContent) -> SiteContent {
        let served = content.servedNames
        let fallback = serving.contains(FileCheck.Kind.fallback.rawValue) ? content.fallback : nil
        guard served.contains(where: { !serving.contains($0) }) || fallback !== content.fallback else {
            return content
        }
        var files: [FileCheck.Kind: PreparedFile] = [:]
        for kind in FileCheck.Kind.served where serving.contains(kind.rawValue) { files[kind] = content.file(kind) }
        let folderFiles = content.folderFilesByName.filter { serving.contains(FolderFiles.servedName($0.key)) }
        return SiteContent(
            name: content.name, files: files, folderFiles: folderFiles, changePassword: content.changePassword,
            fallback: fallback)
    }

    /// Why the sites folder cannot be listed, in our words rather than Foundation's, naming
    /// the call and errno when it is neither missing nor a file (EMFILE, EACCES, EIO).
    static func unreadableReason(_ root: URL, _ error: SystemError?) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) {
            return "cannot read the sites directory: no such folder (give --sites DIR, or sites in the config file)"
        }
        if !isDirectory.boolValue { return "cannot read the sites directory: it is a file, not a folder" }
        guard let error else { return "cannot read the sites directory: permission denied" }
        return "cannot read the sites directory: \(error.callAndErrno); every site keeps serving its last good files"
    }
}
