import AASASites
import Foundation
@preconcurrency import Glibc
import Synchronization

/// Everything the admin listener shows and reloads change, shared by the main thread, the
/// watcher, the admin thread and the loops.
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
        /// The checks of the last load: what every file said.
        public var checks: [FileCheck] = []
        /// Problems of the last failed or partial attempt (diagnostic lines), empty when it succeeded.
        public var lastFailure: String = ""
        /// The outcome of the last attempt: `ok`, `partial` or `failed`.
        public var lastResult = "ok"
        /// For the last partial or failed attempt: the sites that took new files, and those
        /// that kept their last good ones (or, new, serve nothing).
        public var lastChanged: [String] = []
        public var lastKept: [String] = []
        public var certificateProblems: [LoadProblem] = []
    }

    public let configuration: ServerConfiguration
    public let content: ContentStore
    public let certificates: CertificateBox?
    public let started = Int(time(nil))
    public let statistics: [LoopStatistics]
    private let record: Mutex<ReloadRecord>

    public init(
        configuration: ServerConfiguration, content: ContentStore, certificates: CertificateBox?, checks: [FileCheck],
        loops: Int
    ) {
        self.configuration = configuration
        self.content = content
        self.certificates = certificates
        statistics = (0..<loops).map { _ in LoopStatistics() }
        var initial = ReloadRecord()
        initial.checks = checks
        initial.lastAttempt = started
        initial.lastSuccess = started
        record = Mutex(initial)
    }

    public var reloads: ReloadRecord { record.withLock { $0 } }

    func update(_ change: (inout ReloadRecord) -> Void) {
        record.withLock { change(&$0) }
    }
}
