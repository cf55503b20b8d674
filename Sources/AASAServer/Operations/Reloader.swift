import AASASites
import Foundation
@preconcurrency import Glibc
import Logging
import Synchronization

/// Loads the sites (and certificates) again through the one loader and publishes the new
/// snapshot: every valid site takes its new files, every invalid one keeps its last good
/// files. The outcome is logged with the sites changed and kept, counted, and kept for the
/// status page. One reload runs at a time, off the event loops; a reload after inotify reads
/// only the entries that changed.
public final class Reloader: Sendable {
    let state: ServerState
    let logger: Logger
    private let running = Mutex(())
    let wakeLoops: @Sendable () -> Void

    init(state: ServerState, logger: Logger, wakeLoops: @escaping @Sendable () -> Void) {
        self.state = state
        self.logger = logger
        self.wakeLoops = wakeLoops
    }

    /// Reads `changes` again (SIGHUP: everything) and publishes the result.
    public func reload(reason: String, changes: ChangeSet = .everything) {
        running.withLock { _ in
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
    }

    /// Reports a start-up that skipped invalid sites (`invalidSites` `skip`) as a reload from
    /// nothing: the same counts, status and log event, so one alert covers both.
    public static func report(_ load: SnapshotLoader.Load, reason: String, state: ServerState, logger: Logger) {
        record(load, now: state.started, in: state)
        log(load, reason: reason, state: state, logger: logger)
    }

    private static func record(_ load: SnapshotLoader.Load, now: Int, in state: ServerState) {
        state.update { record in
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
        var metadata: Logger.Metadata = [
            "reason": .string(reason), "sites": .stringConvertible(state.snapshots.current.counts.sites),
            "aliases": .stringConvertible(state.snapshots.current.counts.aliases),
            "folders_read": .stringConvertible(load.foldersRead),
        ]
        if load.outcome != .ok { metadata["diagnostics"] = .array(load.problems.map(\.logged)) }
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
