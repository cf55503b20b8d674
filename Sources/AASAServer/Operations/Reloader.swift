import AASASites
import AASATransport
import Foundation
@preconcurrency import Glibc
import Logging
import Synchronization

/// Loads the sites (and certificates) again: every valid site takes its new files, every
/// invalid one keeps its last good files. The outcome is `ok`, `partial` (some sites
/// changed, others were kept) or `failed` (nothing new applied); it is logged with the
/// sites changed and kept, counted, and kept for the status page. One reload runs at a
/// time, off the event loops.
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

    public func reload(reason: String) {
        running.withLock { _ in
            let configuration = state.configuration
            let now = Int(time(nil))
            let loaded = SiteLoader.load(
                URL(fileURLWithPath: configuration.sites), cacheControl: configuration.cacheControl,
                previous: state.content.table)
            var certificates: CertificateStore?
            var certificateProblems: [LoadProblem] = []
            if state.certificates != nil {
                let result = CertificateStore.load(
                    directory: configuration.certs, defaultName: configuration.defaultCertificate)
                certificates = result.store
                certificateProblems = result.problems
            }
            // Valid sites take their new files; an invalid site keeps its last good files
            // (SiteLoader merges them in), so the merged table is always safe to serve.
            let previous = state.content.table
            if let table = loaded.table { state.content.replace(with: table) }
            if let certificates { state.certificates?.replace(with: certificates) }
            let changed = loaded.table?.changedNames(since: previous) ?? []
            let kept = loaded.keptSites + loaded.refusedSites.map { $0 + " (new, not served)" }
            let certificatesFailed = state.certificates != nil && certificates == nil
            let everythingApplied = loaded.isValid && !certificatesFailed
            let result = everythingApplied ? "ok" : changed.isEmpty ? "failed" : "partial"
            let report = loaded.report + certificateProblems.map { $0.line + "\n" }.joined()
            state.update { record in
                record.lastAttempt = now
                record.checks = loaded.checks
                record.certificateProblems = certificateProblems
                record.lastResult = result
                record.lastChanged = changed
                record.lastKept = kept + (certificatesFailed ? ["certificates"] : [])
                switch result {
                case "ok":
                    record.succeeded += 1
                    record.lastSuccess = now
                    record.lastFailure = ""
                case "partial":
                    record.partial += 1
                    record.lastFailure = report
                default:
                    record.failed += 1
                    record.lastFailure = report
                }
            }
            wakeLoops()
            let keptText = (kept + (certificatesFailed ? ["the certificates"] : [])).joined(separator: ", ")
            let metadata: Logger.Metadata = ["reason": "\(reason)", "sites": "\(state.content.table.count)"]
            switch result {
            case "ok":
                logger.info(
                    "reloaded; changed: \(changed.isEmpty ? "nothing" : changed.joined(separator: ", "))",
                    metadata: metadata)
            case "partial":
                logger.warning(
                    "reload partly applied; changed: \(changed.joined(separator: ", ")); kept their last good files: \(keptText)",
                    metadata: metadata.merging(["diagnostics": "\(report)"]) { $1 })
            default:
                logger.error(
                    "reload refused; kept their last good files: \(keptText.isEmpty ? "everything" : keptText)",
                    metadata: metadata.merging(["diagnostics": "\(report)"]) { $1 })
            }
        }
    }
}
