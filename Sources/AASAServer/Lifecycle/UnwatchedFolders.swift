import Synchronization

/// Site and certificate folders the file watcher could not watch (inotify(7)'s
/// `fs.inotify.max_user_watches` reached): changes inside them wait for SIGHUP. Set after
/// the first load's watches (`FileWatcher.firstLoadWatched()`) and by the watcher's thread
/// each time it sets its watches up again, read by the status page and
/// `/metrics` (`aasa_unwatched_folders{kind}`), so the log line is not the only trace.
public final class UnwatchedFolders: Sendable {
    /// The folders, by the names the watcher knows them by (a site's entry in the sites
    /// folder, a certificate folder's path below `--certs`): at most the folders past the limit.
    private let folders = Mutex<(sites: Set<String>, certificates: Set<String>)>(([], []))

    public init() {}

    public var sites: Int { folders.withLock { $0.sites.count } }
    public var certificates: Int { folders.withLock { $0.certificates.count } }

    /// After every site folder was watched again: `unwatched` is all that failed.
    func setSites(_ unwatched: Set<String>) { folders.withLock { $0.sites = unwatched } }

    /// After site folder `entry` alone was watched again.
    func site(_ entry: String, watched: Bool) {
        folders.withLock { folders in
            if watched {
                folders.sites.remove(entry)
            } else {
                folders.sites.insert(entry)
            }
        }
    }

    /// After certificate folders were watched again: every one (`all`) or those `seen`.
    func certificates(unwatched: Set<String>, seen: [String], all: Bool) {
        folders.withLock { folders in
            if all {
                folders.certificates = unwatched
            } else {
                for name in seen where !unwatched.contains(name) { folders.certificates.remove(name) }
                folders.certificates.formUnion(unwatched)
            }
        }
    }
}
