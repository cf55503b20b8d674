import AASAACME
import AASASites
import AASASystem
import AASATransport
import CSystemShims
import Foundation
@preconcurrency import Glibc
import Logging
import Synchronization

/// Watches the sites folder, each site folder and the certificates folder with inotify(7),
/// and reports which sites-folder entries changed once changes have been quiet for a moment
/// (an editor's save, a `kubectl apply` or a certbot renewal touches several files), or at
/// the latest a second after the first, so a stream of changes cannot postpone a reload.
/// Covers files written in place, atomic renames, new and removed site folders, and
/// Kubernetes ConfigMap updates (`..data` is renamed in the sites folder: everything is
/// looked at again). One watch per site folder: with 100,000 sites that needs
/// `fs.inotify.max_user_watches` above 100,000 (docs/serving.md, "Many sites").
///
/// When `--sites` (or a folder on its path) is a symbolic link a deploy swaps (`current ->
/// releases/42`, git-sync's `current -> .worktrees/HASH`), the link's parent folder is watched
/// for the link's name: a new link renamed over it is a full reload from the new target, and
/// every watch is set up again there (docs/sites.md, "Sites layout").
///
/// Every folder is watched before it is read, so a change made while the sites load is
/// reported, never lost: by the watcher when it is made (`Setup.everything`), or, at start-up,
/// by the first load itself (`Setup.roots`), each folder just before that load lists it, on
/// the load's threads (docs/development.md, "Many certificates").
public final class FileWatcher: Sendable {
    /// What the watcher watches when it is made.
    public enum Setup: Sendable {
        /// Every folder: a listing of each, before anything is read.
        case everything
        /// The sites folder (and the links on its path) only; the first load watches each site
        /// and certificate folder as it reads it (`watchSite(_:folder:)`,
        /// `watchCertificateFolder(_:name:)`), then `firstLoadWatched()` reports what failed.
        case roots
    }

    /// What a watch descriptor stands for.
    enum Target {
        case sitesFolder
        /// A site folder, by its entry name in the sites folder.
        case site(String)
        /// A folder of the certificates, by its path below `--certs` as a pair there is named
        /// ("" for the certificates folder itself).
        case certificates(String)
        /// The folder holding a symbolic link on the sites folder's path, for the link's name.
        case sitesLink(String)
    }

    let sites: String
    let certificates: String?
    let logger: Logger
    /// The folders past inotify's limit, for the status page and `/metrics`.
    let unwatched: UnwatchedFolders
    /// The inotify descriptor; -1 when inotify could not be set up.
    let fd: Int32
    /// Watch descriptors and what they stand for: set up when the watcher is made and, at
    /// start-up, by the first load's threads as they read (`Setup.roots`), then read and
    /// changed by the watcher's thread, a batch of events at a time.
    let targets = Mutex<[Int32: Target]>([:])
    /// What the first load's watches could not watch, until `firstLoadWatched()` reports it.
    let firstLoadFailures = Mutex<FirstLoadFailures>(FirstLoadFailures())
    let quietPeriod: UInt64 = 300_000_000
    let longestWait: UInt64 = 1_000_000_000
    private let stopping = Atomic<Bool>(false)
    // Not IN_ATTRIB: reading a file after a change updates its access time, and the
    // reload's own reads would trigger another reload.
    let mask = UInt32(
        IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF
            | IN_MOVE_SELF)

    public init(
        sites: String, certificates: String?, logger: Logger, unwatched: UnwatchedFolders = UnwatchedFolders(),
        setup: Setup = .everything
    ) {
        self.sites = sites
        self.certificates = certificates
        self.logger = logger
        self.unwatched = unwatched
        do throws(SystemError) {
            fd = try Posix.inotify()
        } catch {
            fd = -1
            logger.warning("cannot watch the sites folder (\(error)); reload with SIGHUP")
            return
        }
        switch setup {
        case .everything: targets.withLock { watchEverything(&$0) }
        case .roots: targets.withLock { watchSitesFolder(&$0) }
        }
    }

    deinit {
        if fd >= 0 { Posix.close(fd) }
    }

    func stop() {
        stopping.store(true, ordering: .releasing)
    }

    /// Whether inotify could be set up (else there is nothing to run).
    var isWatching: Bool { fd >= 0 }

    /// Reports changes to `onChange` until `stop()`; returns why it stopped on its own, when
    /// it did. The watches are read and set up again under the lock, and `onChange` (a reload)
    /// runs outside it.
    func run(onChange: @Sendable (ChangeSet) -> Void) -> String? {
        guard fd >= 0 else { return "inotify is unavailable; reload with SIGHUP" }
        var pending: ChangeSet?
        var firstAt: UInt64 = 0
        var lastAt: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !stopping.load(ordering: .acquiring) {
            let ready: Int16
            do throws(SystemError) {
                ready = try Posix.poll(fd, events: Int16(POLLIN), milliseconds: { 100 })
            } catch {
                // Only a broken descriptor or no memory fails here: waiting again would spin.
                logger.warning("stopped watching the sites folder (\(error)); reload with SIGHUP")
                return "\(error)"
            }
            let due = targets.withLock { targets -> ChangeSet? in
                if ready != 0, let changes = readChanges(&buffer, &targets) {
                    let now = MonotonicClock.now()
                    if pending == nil { firstAt = now }
                    lastAt = now
                    pending = pending?.merged(with: changes) ?? changes
                }
                let now = MonotonicClock.now()
                guard let changes = pending, now &- lastAt >= quietPeriod || now &- firstAt >= longestWait else {
                    return nil
                }
                pending = nil
                if changes.sites == nil {
                    watchEverything(&targets)
                } else {
                    let root = SiteLoader.Folder(URL(fileURLWithPath: sites))
                    for entry in changes.sites ?? [] {
                        unwatched.site(entry, watched: watchSite(entry, root, &targets) == nil)
                    }
                    if changes.certificates { watchCertificates(&targets, only: changes.certificateFolders) }
                }
                return changes
            }
            // Watches are in place before the reload reads, so nothing written meanwhile is missed.
            if let due { onChange(due) }
        }
        return nil
    }

    /// Reads every queued event into the entries they touch; nil when none is a change (a
    /// watch going away, IN_IGNORED, is not, unless it is the sites folder's own).
    private func readChanges(_ buffer: inout [UInt8], _ targets: inout [Int32: Target]) -> ChangeSet? {
        var changes: ChangeSet?
        func add(_ change: ChangeSet) { changes = changes?.merged(with: change) ?? change }
        while true {
            let result = buffer.withUnsafeMutableBytes { try? Posix.read(fd, into: $0) }
            guard case .processed(let count)? = result, count > 0 else { return changes }
            var offset = 0
            buffer.withUnsafeBytes { raw in
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    offset = nameStart + Int(event.len)
                    let name =
                        event.len == 0
                        ? ""
                        : String(
                            decoding: raw[nameStart..<min(offset, count)].prefix { $0 != 0 }, as: UTF8.self)
                    if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        add(.everything)
                        continue
                    }
                    let ignored = event.mask & UInt32(IN_IGNORED) != 0
                    switch targets[event.wd] {
                    case .sitesFolder?:
                        if ignored || event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                            add(.everything)
                        } else if name.hasPrefix("..") {
                            // A ConfigMap's `..data` swap moves every site at once.
                            add(ChangeSet(sites: nil, certificates: false))
                        } else if !name.isEmpty && !name.hasPrefix(".") {
                            add(ChangeSet(sites: [name], certificates: false))
                        }
                    case .site(let entry)?:
                        if !ignored { add(ChangeSet(sites: [entry], certificates: false)) }
                    case .sitesLink(let link)?:
                        // The link itself replaced (created, renamed over, removed): a new root.
                        if name == link { add(ChangeSet(sites: nil, certificates: false)) }
                    case .certificates(let folder)?:
                        // Hidden entries are ACME's lock and staging files; `..data` is a
                        // Kubernetes Secret's swap and counts. The store's own folders
                        // (`challenges`, `preflight`, ...) come and go with each challenge and
                        // pre-flight: no certificate, no reload.
                        if !ignored && (!name.hasPrefix(".") || name.hasPrefix(".."))
                            && !ACMEStorage.storeOnlyFolders.contains(name)
                        {
                            let changed = Self.certificateFolder(folder, entry: name)
                            add(ChangeSet(sites: [], certificates: true, certificateFolders: [changed]))
                        }
                    case nil:
                        break
                    }
                    if ignored { targets[event.wd] = nil }
                }
            }
        }
    }

    /// The sites folder, every site folder in it, and the certificates.
    private func watchEverything(_ targets: inout [Int32: Target]) {
        let entries: [FileStatus.Entry]
        do throws(SystemError) {
            entries = try FileStatus.listing(of: sites)
        } catch let error where error.errno != ENOENT && error.errno != ENOTDIR {
            // A listing that failed (EMFILE) is no folder without sites: the watches stay.
            logger.warning(
                "cannot list the sites folder to watch it (\(error.callAndErrno)); the watches stay as they were")
            return
        } catch {
            entries = []
        }
        let old = targets
        targets = [:]
        let root = SiteLoader.Folder(URL(fileURLWithPath: sites))
        watchSitesFolder(&targets)
        var failed: Set<String> = []
        var reason: SystemError?
        for entry in entries {
            if let error = watchSite(entry.name, root, &targets, kind: entry.kind) {
                failed.insert(entry.name)
                reason = error
            }
        }
        unwatched.setSites(failed)
        let failures = failed.count
        if failures > 0, let reason {
            logger.warning(
                "\(failures) site folders are not watched (\(reason.call): \(reason.reason)); \(Self.siteAdvice)"
            )
        }
        watchCertificates(&targets, only: nil)
        // Watches of a root swapped away (the same folder keeps its descriptor when added again).
        for wd in old.keys where targets[wd] == nil { Posix.removeWatch(fd, wd) }
    }

    /// The sites folder itself and the folders holding the links on its path.
    private func watchSitesFolder(_ targets: inout [Int32: Target]) {
        if let wd = try? Posix.addWatch(fd, sites, mask: mask) { targets[wd] = .sitesFolder }
        for (parent, link) in Self.links(on: sites) {
            if let wd = try? Posix.addWatch(fd, parent, mask: linkMask) { targets[wd] = .sitesLink(link) }
        }
    }

    static let siteAdvice =
        "raise fs.inotify.max_user_watches (sysctl) for changes inside them to be seen; new and removed "
        + "folders are still seen, and SIGHUP reloads everything"
    static let certificateAdvice =
        "raise fs.inotify.max_user_watches (sysctl) for changed certificates to be seen; SIGHUP reloads them"

    /// Only the link's own name replaced or removed counts in its parent folder.
    private let linkMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR)

    /// Each symbolic link on `path`'s way, as its parent folder (links before it resolved) and
    /// its name: `/srv/aasa/current` with `current -> releases/42` is `("/srv/aasa", "current")`.
    static func links(on path: String) -> [(parent: String, name: String)] {
        var found: [(parent: String, name: String)] = []
        var folder = URL(fileURLWithPath: "/")
        for component in URL(fileURLWithPath: path).standardizedFileURL.pathComponents.dropFirst() {
            let next = folder.appendingPathComponent(component)
            guard FileStatus(next.path, followingLinks: false)?.kind == .symbolicLink else {
                folder = next
                continue
            }
            found.append((folder.path, component))
            folder = next.resolvingSymlinksInPath()
        }
        return found
    }

    /// Watches the site folder `entry`; the error when it is one and the watch failed.
    @discardableResult
    private func watchSite(
        _ entry: String, _ root: SiteLoader.Folder, _ targets: inout [Int32: Target], kind: FileStatus.Kind? = nil
    ) -> SystemError? {
        guard case .site(let site) = SiteDirectory.examine(entry, in: root.path, realRoot: root.realPath, kind: kind),
            site.aliasOf == nil
        else { return nil }
        do throws(SystemError) {
            targets[try Posix.addWatch(fd, site.folderPath, mask: mask)] = .site(entry)
            // Its `well-known/` folder, when it has one, counts as the site (served at /.well-known/NAME).
            if let wd = try? Posix.addWatch(fd, Self.wellKnown(site.folderPath), mask: wellKnownMask) {
                targets[wd] = .site(entry)
            }
            return nil
        } catch {
            return error
        }
    }

    var wellKnownMask: UInt32 { mask | UInt32(IN_ONLYDIR) }

    static func wellKnown(_ folder: String) -> String { folder + "/" + WellKnownFile.folderName }

    /// The certificate folder a watched folder's events stand for: itself, or for a Secret's
    /// `..data` the folder holding it (inotify_add_watch(2) follows the link to its target, whose
    /// files the Secret's visible names link through).
    static func certificateTarget(_ name: String) -> String {
        name.hasSuffix("..data") ? String(name.dropLast(6)).trimmingSuffix("/") : name
    }

    /// Whether `entry` (relative to the certificates folder) is one of the store's own folders
    /// under `acme/` (`ACMEStorage.storeOnlyFolders`) or below one.
    static func isStoreOnly(_ entry: String) -> Bool {
        let parts = entry.split(separator: "/", maxSplits: 2)
        return parts.count >= 2 && parts[0] == "acme" && ACMEStorage.storeOnlyFolders.contains(String(parts[1]))
    }

    /// The folder of the certificates whose pairs an event names: the folder itself when a
    /// pair's file (or a Secret's `..data`) changed in it, else the entry as a folder of its
    /// own (a new, removed or renamed certificate folder, or a link to one).
    static func certificateFolder(_ folder: String, entry: String) -> String {
        if entry.isEmpty || entry.hasPrefix("..") || CertificateStore.pairFileNames.contains(entry) { return folder }
        return folder.isEmpty ? entry : folder + "/" + entry
    }

    /// The certificates folder and every folder below it (links followed), or only those in
    /// and below `only` (paths below `--certs`). Folders that cannot be watched (the inotify
    /// limit) are counted and logged, as site folders are: their changes wait for SIGHUP.
    private func watchCertificates(_ targets: inout [Int32: Target], only: Set<String>?) {
        guard let certificates else { return }
        var folders: [(path: String, name: String)] = []
        if only == nil { folders.append((certificates, "")) }
        var pending: [(path: String, name: String)] =
            only.map { $0.map { (certificates + "/" + $0, $0) } } ?? [(certificates, "")]
        while let (path, name) = pending.popLast() {
            guard let entries = try? Posix.entries(atPath: path) else { continue }
            if only != nil { folders.append((path, name)) }
            for entry in entries where !entry.name.hasPrefix(".") || entry.name == "..data" {
                guard !CertificateStore.pairFileNames.contains(entry.name) else { continue }
                let child = (path + "/" + entry.name, name.isEmpty ? entry.name : name + "/" + entry.name)
                // What ACME's store keeps beside the certificates (pending challenges, backoffs, the
                // watches' results) changes often and is no certificate: not watched.
                if Self.isStoreOnly(child.1) { continue }
                if entry.type == UInt8(DT_DIR) {
                    folders.append(child)
                    pending.append(child)
                } else if entry.type == UInt8(DT_LNK) || entry.type == UInt8(DT_UNKNOWN),
                    FileStatus(child.0)?.kind == .directory
                {
                    // A link to a folder (certbot's live/NAME, a Secret's `..data`): watched at
                    // its target, not walked into further.
                    folders.append(child)
                }
            }
        }
        var failed: Set<String> = []
        var reason: SystemError?
        for (path, name) in folders {
            do throws(SystemError) {
                targets[try Posix.addWatch(fd, path, mask: mask)] = .certificates(Self.certificateTarget(name))
            } catch {
                failed.insert(name)
                reason = error
            }
        }
        unwatched.certificates(unwatched: failed, seen: folders.map(\.name), all: only == nil)
        let failures = failed.count
        if failures > 0, let reason {
            let why = "\(reason.call): \(reason.reason)"
            logger.warning("\(failures) certificate folders are not watched (\(why)); \(Self.certificateAdvice)")
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
