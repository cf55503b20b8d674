import AASAACME
import AASALoop
import AASASiteServing
import AASASites
import AASASystem
import AASATransport
import CSystemShims
import Dispatch
import Foundation
@preconcurrency import Glibc
import Synchronization

/// The one place a `ServerSnapshot` is built, for start-up (no previous snapshot) and for
/// every reload (the previous one supplies the last good files of invalid sites, every
/// record that did not change, and, when they were not reloaded or failed, the certificates).
public enum SnapshotLoader {
    /// `ok`: everything loaded is valid and applied. `partial`: some sites took new files
    /// while others kept their last good ones (or the certificates were kept). `failed`:
    /// nothing new applied.
    public enum Outcome: String, Sendable {
        case ok, partial, failed
    }

    public struct Load: Sendable {
        /// Nil when the sites folder cannot be read: nothing new can serve.
        public let snapshot: ServerSnapshot?
        public let outcome: Outcome
        /// Names (aliases included) whose files differ from the previous snapshot's; at
        /// start-up, empty, or with `invalidSites` `skip` every name served.
        public let changed: [String]
        /// Sites that kept their last good files (or, new, serve nothing), and `certificates`
        /// when the certificates did not load.
        public let kept: [String]
        /// Every problem found, typed, also when no snapshot could be built.
        public let problems: [LoadProblem]
        public let sitesReadable: Bool
        /// Every site file valid and every alias resolved.
        public let sitesValid: Bool
        public let certificatesFailed: Bool
        /// Site folders whose files were read again (the rest kept their records unread).
        public var foldersRead = 0
        /// Served files this load found deleted, whose last copy now serves out its grace
        /// (`SITE011`): each is logged as a warning.
        public var deletions: [LoadProblem] = []
    }

    /// `watcher`: at start-up, the watcher that watches each folder as this load reads it
    /// (`FileWatcher.Setup.roots`).
    public static func load(
        _ configuration: ServerConfiguration, previous: ServerSnapshot?, changes: ChangeSet = .everything,
        watcher: FileWatcher? = nil, progress: SiteLoader.Progress? = nil
    ) -> Load {
        let root = URL(fileURLWithPath: configuration.sites)
        var settings = SiteLoader.Settings(
            cacheControl: configuration.cacheControl, deletedFileGrace: configuration.deletedFileGrace)
        settings.watcher = watcher
        // The certificates' index and the sites load side by side: each has a part that runs on
        // one thread (listing the folders), which the other's work fills (docs/development.md,
        // "Many certificates").
        let certificateLoad = Mutex<CertificateStore.LoadResult?>(nil)
        let certificateWatch: CertificateStore.FolderWatch? =
            if let watcher {
                { (path: String, name: String) in watcher.watchCertificateFolder(path, name: name) }
            } else { nil }
        // A thread of the load's own, joined before the load returns (docs/ARCHITECTURE.md,
        // "Threads"); without one (the thread limit) the index is read after the sites.
        let indexThread = ThreadSet()
        let loadCertificates: @Sendable () -> Void = {
            let result = CertificateStore.load(
                directory: configuration.certs, defaultName: configuration.defaultCertificate,
                issued: configuration.acme.enabled ? ACMEStorage(certificates: configuration.certs).folder : nil,
                previous: previous?.certificates, folders: changes.certificateFolders,
                cacheBytes: configuration.certificateCacheMiB << 20,
                watch: certificateWatch)
            certificateLoad.withLock { $0 = result }
        }
        var indexRunsAfter = false
        if configuration.https != nil && (changes.certificates || previous == nil) {
            do throws(SystemError) {
                try indexThread.start("aasa-cert-index", loadCertificates)
            } catch {
                indexRunsAfter = true
            }
        }
        let sites = Result { () throws(SystemError) in
            try loadSites(root, settings, previous: previous, changes: changes, progress: progress)
        }
        indexThread.join()
        if indexRunsAfter { loadCertificates() }
        // What the files' parsing left free in each thread's heap goes back to the system
        // (malloc_trim(3)); otherwise a load on every core keeps its peak resident for good.
        defer { Posix.returnFreeMemory() }
        var certificates = previous?.certificates
        var certificateProblems = previous?.certificateProblems ?? []
        var certificatesFailed = false
        if let result = certificateLoad.withLock({ $0.take() }) {
            certificates = result.store ?? certificates
            certificateProblems = result.problems.map(LoadProblem.init)
            certificatesFailed = result.store == nil
        }
        guard case .success(let (catalog, table, changedNames, foldersRead)) = sites else {
            let error: SystemError? = if case .failure(let error) = sites { error } else { nil }
            let problem = LoadProblem(
                root.path, .sitesUnreadable, .error, SiteLoader.unreadableReason(root, error))
            return Load(
                snapshot: nil, outcome: .failed, changed: [], kept: certificatesFailed ? ["certificates"] : [],
                problems: [problem] + certificateProblems, sitesReadable: false, sitesValid: false,
                certificatesFailed: certificatesFailed)
        }
        let siteProblems = catalog.problems(root: root)
        let snapshot = ServerSnapshot(
            serving: ServingSnapshot(table: table, certificates: certificates), catalog: catalog,
            siteProblems: siteProblems,
            certificateProblems: certificateProblems, counts: catalog.counts())
        let sitesValid = !siteProblems.hasErrors
        // Skipping invalid sites at start-up is a reload from nothing: every name served is new.
        let skipping = previous == nil && configuration.invalidSites == .skip && !sitesValid && !certificatesFailed
        let changed = skipping ? Array(table.map.allNames).sorted() : changedNames
        let kept =
            (sitesValid ? [] : keptSites(catalog)) + (certificatesFailed ? ["certificates"] : [])
        let outcome: Outcome =
            sitesValid && !certificatesFailed
            ? .ok : (previous == nil && !skipping) || changed.isEmpty ? .failed : .partial
        var load = Load(
            snapshot: snapshot, outcome: outcome, changed: changed, kept: kept, problems: snapshot.problems,
            sitesReadable: true, sitesValid: sitesValid, certificatesFailed: certificatesFailed)
        load.foldersRead = foldersRead
        if snapshot.counts.deletedFiles > 0 {
            // Found deleted by this load (the rest were logged by the load that found them).
            load.deletions = catalog.records.values.filter { !$0.deletedFiles.isEmpty }.sorted { $0.name < $1.name }
                .flatMap { record in
                    let before = Set(previous?.catalog.records[record.name]?.deletedFiles.map(\.name) ?? [])
                    let new = record.deletedFiles.map(\.name).filter { !before.contains($0) }.map { "/" + $0 }
                    return record.folderProblems.filter { problem in
                        problem.code == LoadProblem.Code.fileDeleted.rawValue
                            && new.contains { problem.path.hasSuffix($0) }
                    }
                }
        }
        return load
    }

    /// The catalog and table after `changes`, the names whose content changed, and how many
    /// folders were read again; why not when the sites folder cannot be read.
    private static func loadSites(
        _ root: URL, _ settings: SiteLoader.Settings, previous: ServerSnapshot?, changes: ChangeSet,
        progress: SiteLoader.Progress?
    ) throws(SystemError) -> (SiteCatalog, SiteTable, [String], Int) {
        func read(_ catalog: SiteCatalog, among names: some Sequence<String>) -> Int {
            names.reduce(0) { count, name in
                guard let record = catalog.records[name] else { return count }
                return record === previous?.catalog.records[name] ? count : count + 1
            }
        }
        if let previous, let entries = changes.sites {
            let status = try Posix.status(root.path, followingLinks: true)
            guard status.st_mode & S_IFMT == S_IFDIR else { throw SystemError("stat", errno: ENOTDIR, path: root.path) }
            let (catalog, affected) = SiteLoader.update(
                previous.catalog, root: root, entries: entries, settings: settings)
            let table = SiteTable(catalog.map(updating: previous.table.map, names: affected))
            return (
                catalog, table, table.changedNames(since: previous.table, among: affected),
                read(catalog, among: affected)
            )
        }
        let catalog = try SiteLoader.scan(root, settings: settings, previous: previous?.catalog, progress: progress)
        let table = SiteTable(catalog.map())
        return (
            catalog, table, previous.map { table.changedNames(since: $0.table) } ?? [],
            read(catalog, among: catalog.records.keys)
        )
    }

    /// Sites that kept their last good files, and new ones that serve nothing, by name.
    private static func keptSites(_ catalog: SiteCatalog) -> [String] {
        catalog.records.values.compactMap { record in
            switch record.state {
            case .valid: nil
            case .keptLastGood: record.name
            case .refused: record.name + " (new, not served)"
            }
        }.sorted()
    }
}
