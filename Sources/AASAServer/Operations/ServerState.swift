@preconcurrency import Glibc
import Foundation
import Synchronization

/// Everything the admin listener shows and reloads change, shared by the main thread, the
/// watcher, the admin thread and the loops.
public final class ServerState: Sendable {
    public struct ReloadRecord: Sendable {
        public var succeeded = 0
        public var failed = 0
        /// Seconds since the epoch of the last attempt.
        public var lastAttempt = 0
        public var lastSuccess = 0
        /// The checks of the last load: what every file said.
        public var checks: [FileCheck] = []
        /// Problems of the last failed attempt (diagnostic lines), empty when it succeeded.
        public var lastFailure: String = ""
        public var certificateProblems: [String] = []
    }

    public let configuration: ServerConfiguration
    public let content: ContentStore
    public let certificates: CertificateBox?
    public let started = Int(time(nil))
    public let statistics: [LoopStatistics]
    private let record: Mutex<ReloadRecord>

    public init(configuration: ServerConfiguration, content: ContentStore, certificates: CertificateBox?, checks: [FileCheck], loops: Int) {
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
