@preconcurrency import Glibc
import Foundation
import Logging
import Synchronization

/// Loads the sites (and certificates) again and swaps them in only when everything is valid;
/// otherwise the last good state keeps serving and the failure is logged, counted and kept
/// for the status page. One reload runs at a time, off the event loops.
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
                URL(fileURLWithPath: configuration.sites), cacheControl: configuration.cacheControl, previous: state.content.table)
            var certificates: CertificateStore?
            var certificateProblems: [String] = []
            if state.certificates != nil {
                let result = CertificateStore.load(directory: configuration.certs, defaultName: configuration.defaultCertificate)
                certificates = result.store
                certificateProblems = result.problems
            }
            // Valid sites take their new files; an invalid site keeps its last good files
            // (SiteLoader merges them in), so the merged table is always safe to serve.
            if let table = loaded.table {
                state.content.replace(with: table)
            }
            if let certificates { state.certificates?.replace(with: certificates) }
            let sitesFailed = !loaded.isValid
            let certificatesFailed = state.certificates != nil && certificates == nil
            let report = loaded.report + certificateProblems.map { $0 + "\n" }.joined()
            state.update { record in
                record.lastAttempt = now
                record.checks = loaded.checks
                record.certificateProblems = certificateProblems
                if sitesFailed || certificatesFailed {
                    record.failed += 1
                    record.lastFailure = report
                } else {
                    record.succeeded += 1
                    record.lastSuccess = now
                    record.lastFailure = ""
                }
            }
            wakeLoops()
            if sitesFailed || certificatesFailed {
                let kept = [sitesFailed ? "sites" : nil, certificatesFailed ? "certificates" : nil].compactMap { $0 }.joined(separator: " and ")
                logger.error("reload refused: the last good \(kept) keep serving", metadata: ["reason": "\(reason)", "diagnostics": "\(report)"])
            } else {
                logger.info("reloaded", metadata: ["reason": "\(reason)", "sites": "\(state.content.table.count)"])
            }
        }
    }
}
