import AASALoop
import AASASites
import AASASystem
import Foundation
@preconcurrency import Glibc
import Logging
import Synchronization

/// Loads the sites (and certificates) again through the one loader and publishes the new
/// snapshot: every valid site takes its new files, every invalid one keeps its last good
/// files. The outcome is logged with the sites changed and kept, counted, and kept for the
/// status page. One reload runs at a time, off the event loops; a reload after inotify reads
/// only the entries that changed. Its own thread (`aasa-grace`) waits for the end of the first
/// deleted file's grace and reloads then; `stop` cancels that wait and `waitUntilStopped` joins it.
public final class Reloader: Sendable, ServerComponent {
    /// The end of a deleted file's grace a reload is scheduled for.
    struct GraceEnd {
        /// Seconds since the epoch, as the snapshot counts it.
        var end: Int
        /// When the grace thread reloads (monotonic nanoseconds).
        var at: UInt64
    }

    let name = "aasa-grace"
    /// A reload that cannot run is logged by the reload; the grace thread never ends on its own.
    let policy = FailurePolicy.logAndContinue
    let failures = FailureReport()
    let state: ServerState
    let logger: Logger
    private let running = Mutex(())
    let wakeLoops: @Sendable () -> Void
    private let graceReload = Mutex<GraceEnd?>(nil)
    private let graceSignal = WorkerSignal()
    private let threads = ThreadSet()
    /// The loops' share of the descriptor limit, read again before each reload: a limit
    /// lowered at run time (prlimit(1)) is taken into account from then on.
    let descriptors: DescriptorBudget?
    /// Set by `stop`: no reload starts after it (a certificate issued, a grace that ends).
    private let stopped = Atomic<Bool>(false)

    init(
        state: ServerState, logger: Logger, descriptors: DescriptorBudget? = nil,
        wakeLoops: @escaping @Sendable () -> Void
    ) {
        self.state = state
        self.logger = logger
        self.descriptors = descriptors
        self.wakeLoops = wakeLoops
    }

    /// Reads `changes` again (SIGHUP: everything) and publishes the result.
    public func reload(reason: String, changes: ChangeSet = .everything) {
        running.withLock { _ in
            guard !stopped.load(ordering: .acquiring) else { return }
            descriptors?.refresh()
            let now = Int(time(nil))
            let load = SnapshotLoader.load(state.configuration, previous: state.snapshots.current, changes: changes)
            // Valid sites take their new files; an invalid site keeps its last good files
            // (the loader merges them in), so the snapshot is always safe to serve.
            if let snapshot = load.snapshot { state.snapshots.publish(snapshot) }
            Self.record(load, now: now, in: state)
            wakeLoops()
            Self.log(load, reason: reason, state: state, logger: logger)
            if load.snapshot != nil { state.observeSnapshot() }
        }
        scheduleGraceEnd()
    }

    /// Tells ACME and the CDN watch what the first snapshot serves (from then on each reload
    /// tells them), and starts the thread that ends deleted files' grace.
    func start() throws {
        state.observeSnapshot()
        try threads.start(name) { [self] in
            while nextGraceEnd() != nil { endGrace() }
        }
        scheduleGraceEnd()
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
        graceSignal.wake()
    }

    func waitUntilStopped() {
        threads.join()
    }

    /// How long a grace end that a reload could not apply waits before it is tried again.
    static let graceRetry = 5.0

    /// Schedules the reload that ends the first deleted file's grace, unless one is scheduled
    /// for then or earlier: the loader owns the clock, no request looks at it. The reload reads
    /// only the folders whose grace has ended.
    func scheduleGraceEnd() {
        guard let end = state.snapshots.current.counts.graceEnds else { return }
        // A little past the end, so the reload's clock is past it too. An end already past is a
        // reload that could not end it (the sites folder could not be listed): tried again in a
        // few seconds, never in a loop that would hold descriptors and fill the log.
        let remaining = Double(end) - Date().timeIntervalSince1970
        let delay = remaining > 0 ? remaining + 0.05 : Self.graceRetry
        let isNew = graceReload.withLock { scheduled in
            guard scheduled.map({ end < $0.end }) ?? true else { return false }
            scheduled = GraceEnd(end: end, at: MonotonicClock.now() &+ UInt64(delay * 1e9))
            return true
        }
        if isNew { graceSignal.wake() }
    }

    /// The grace end that is due, once it is (nil after `stop`).
    private func nextGraceEnd() -> Int? {
        graceSignal.next { () -> WorkerSignal.Step<Int> in
            if stopped.load(ordering: .acquiring) { return .stop }
            return graceReload.withLock { scheduled in
                guard let grace = scheduled else { return .wait(3600) }
                let now = MonotonicClock.now()
                guard now >= grace.at else { return .wait(Double(grace.at - now) / 1e9) }
                scheduled = nil
                return .take(grace.end)
            }
        }
    }

    /// Reloads the site folders whose deleted files' grace has ended, or schedules the next end.
    private func endGrace() {
        let now = Int(Date().timeIntervalSince1970)
        let due = state.snapshots.current.catalog.records.values.filter { record in
            record.deletedFiles.contains { $0.servedUntil <= now }
        }.map(\.site.entry)
        guard !due.isEmpty else { return scheduleGraceEnd() }
        reload(reason: "deleted-file grace ended", changes: ChangeSet(sites: Set(due), certificates: false))
    }

    /// Reports a start-up that skipped invalid sites (`invalidSites` `skip`) once: one log
    /// event and the status page name them, and no reload is counted, so AASAReloadPartial
    /// does not fire at every start of a pod while one customer's file is bad; the file's own
    /// alert (AASASiteFilesInvalid, with its site) stays until it is fixed.
    public static func report(_ load: SnapshotLoader.Load, reason: String, state: ServerState, logger: Logger) {
        state.update { record in
            record.skippedAtStart = load.kept
            record.lastProblems = load.problems
        }
        // The counts a reload's event carries, so a log shipper reads one shape for both.
        var metadata = counts(load, reason: reason, state: state)
        metadata["diagnostics"] = .array(load.problems.map(\.logged))
        logger.warning("started without invalid sites: \(load.kept.joined(separator: ", "))", metadata: metadata)
    }

    /// What every load's event says: why, and the sites, aliases and folders it counted.
    private static func counts(_ load: SnapshotLoader.Load, reason: String, state: ServerState) -> Logger.Metadata {
        [
            "reason": .string(reason), "sites": .stringConvertible(state.snapshots.current.counts.sites),
            "aliases": .stringConvertible(state.snapshots.current.counts.aliases),
            "folders_read": .stringConvertible(load.foldersRead),
        ]
    }

    private static func record(_ load: SnapshotLoader.Load, now: Int, in state: ServerState) {
        state.update { record in
            record.skippedAtStart = []
            record.lastAttempt = now
            record.lastOutcome = load.outcome
            record.lastChanged = load.changed
            record.lastKept = load.kept
            record.lastProblems = load.outcome == .ok ? [] : load.problems
            switch load.outcome {
            case .ok:
                record.succeeded += 1
                record.lastSuccess = now
            case .partial: record.partial += 1
            case .failed: record.failed += 1
            }
        }
    }

    private static func log(_ load: SnapshotLoader.Load, reason: String, state: ServerState, logger: Logger) {
        let keptText = load.kept.map { $0 == "certificates" ? "the certificates" : $0 }.joined(separator: ", ")
        var metadata = counts(load, reason: reason, state: state)
        if load.outcome != .ok { metadata["diagnostics"] = .array(load.problems.map(\.logged)) }
        for deletion in load.deletions {
            logger.warning(
                "\(deletion.site ?? "-"): \((deletion.path as NSString).lastPathComponent) \(deletion.message)",
                metadata: ["reason": .string(reason), "code": .string(deletion.code), "file": .string(deletion.path)])
        }
        switch load.outcome {
        case .ok:
            let changed = load.changed.isEmpty ? "nothing" : load.changed.joined(separator: ", ")
            logger.info("reloaded; changed: \(changed)", metadata: metadata)
        case .partial:
            let changed = load.changed.joined(separator: ", ")
            logger.warning(
                "reload partly applied; changed: \(changed); kept their last good files: \(keptText)",
                metadata: metadata)
        case .failed:
            logger.error(
                "reload refused; kept their last good files: \(keptText.isEmpty ? "everything" : keptText)",
                metadata: metadata)
        }
    }
}
