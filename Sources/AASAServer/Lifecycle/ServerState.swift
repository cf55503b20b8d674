import AASAACME
import AASALoop
import AASASiteServing
import AASASites
import AssociationKit
import Foundation
@preconcurrency import Glibc
import Synchronization

/// Everything the admin listener shows and reloads change, shared by the main thread, the
/// watcher, the admin loop and the serving loops: the settings, the published snapshot,
/// the loops' counters and the record of reloads.
public final class ServerState: Sendable {
    public struct ReloadRecord: Sendable {
        public var succeeded = 0
        /// Applied in part: some sites took new files while others kept their last good ones
        /// (or certificates did).
        public var partial = 0
        public var failed = 0
        /// Seconds since the epoch of the last attempt.
        public var lastAttempt = 0
        public var lastSuccess = 0
        public var lastOutcome = SnapshotLoader.Outcome.ok
        /// For the last partial or failed attempt: the sites that took new files, and those
        /// that kept their last good ones (or, new, serve nothing).
        public var lastChanged: [String] = []
        public var lastKept: [String] = []
        /// The problems of the last attempt that did not succeed; empty after a success.
        public var lastProblems: [LoadProblem] = []
        /// The sites a start-up with `--invalid-sites skip` left out: reported once, not
        /// counted as a reload (a pod that starts with one bad customer file is not a failing
        /// reload at every start); empty once a reload is attempted.
        public var skippedAtStart: [String] = []
    }

    public let configuration: ServerConfiguration
    /// The published snapshot: its serving half for the loops, the whole for everyone else.
    public let snapshots: ServerSnapshotBox
    public let started = Int(time(nil))
    public let statistics: [LoopStatistics]
    /// The status page's URL tester compiles a site's files on first use.
    let matchers = ServedFileCache<PreparedFile, AssociationMatcher>(capacity: 64)
    let androidMatchers = ServedFileCache<PreparedFile, AssetLinksMatcher>(capacity: 64)
    /// The notes of the clean files on the status page, found on first view: enough for every
    /// file of a page of sites.
    let notes = ServedFileCache<PreparedFile, [Diagnostic]>(capacity: 4 * SiteListing.pageSize)
    /// What each site's files on the status page say about each other (`SiteAgreement`).
    let agreements = ServedFileCache<SiteContent, SiteAgreement>(capacity: 2 * SiteListing.pageSize)
    /// Certificates from an ACME CA (nil unless `--acme on`).
    public let acme: ACMEManager?
    /// The watch over Apple's CDN (nil unless `--cdn-watch on`).
    public let cdnWatch: CacheWatcher?
    /// The watch over Google's view (nil unless `--google-watch on`).
    public let googleWatch: CacheWatcher?
    /// What Apple's fetcher fetched here (always recorded).
    public let appleFetches: AppleFetches
    /// What the admin listener asks for on every path but /healthz and /readyz (nil: nothing).
    let adminToken: AdminToken?
    /// Folders the file watcher could not watch (inotify's limit).
    let unwatched: UnwatchedFolders
    private let record: Mutex<ReloadRecord>

    /// The parts are made by the composition root (`ServerBuilder`); this only holds them.
    init(
        configuration: ServerConfiguration, snapshot: ServerSnapshot, loops: Int, acme: ACMEManager?,
        cdnWatch: CacheWatcher?, googleWatch: CacheWatcher?, appleFetches: AppleFetches, adminToken: AdminToken?,
        unwatched: UnwatchedFolders = UnwatchedFolders()
    ) {
        self.unwatched = unwatched
        self.configuration = configuration
        self.adminToken = adminToken
        self.acme = acme
        self.cdnWatch = cdnWatch
        self.googleWatch = googleWatch
        self.appleFetches = appleFetches
        snapshots = ServerSnapshotBox(snapshot)
        statistics = (0..<loops).map { _ in LoopStatistics() }
        var initial = ReloadRecord()
        initial.lastAttempt = started
        initial.lastSuccess = started
        record = Mutex(initial)
    }

    public var reloads: ReloadRecord { record.withLock { $0 } }

    func update(_ change: (inout ReloadRecord) -> Void) {
        record.withLock { change(&$0) }
    }

    /// Tells ACME and the cache watches what the published snapshot serves (after start-up and
    /// every reload).
    func observeSnapshot() {
        let snapshot = snapshots.current
        cdnWatch?.update(snapshot)
        googleWatch?.update(snapshot)
        guard let acme else { return }
        acme.update(
            plans: snapshot.certificatePlans(acmeFolder: acme.storage.folder),
            certificates: snapshot.certificates?.certificates ?? [])
    }
}
