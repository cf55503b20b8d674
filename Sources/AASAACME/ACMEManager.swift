import AASASites
import AASATransport
import Foundation
@preconcurrency import Glibc
import Logging
import Synchronization

/// Keeps a certificate for every plan (README, "Automatic certificates"): orders what is
/// missing, renews when a third of the lifetime remains, retries failures with exponential
/// backoff and jitter (never sooner than the CA's Retry-After, never later than a day), and
/// takes on-demand names from handshakes within an hourly rate and a weekly budget per
/// registered domain (`ACMEManager+OnDemand.swift`). A few worker threads run the orders
/// (`ACMESettings.concurrentOrders`): renewals first, then on-demand names, then the oldest due.
public final class ACMEManager: Sendable {
    struct Job {
        var plan: CertificatePlan
        var state: ManagedCertificate.State
        var dueAt: Int
        var failures = 0
        var lastError: String?
        var renewal: Bool
        var issuer: String?
        var notAfter: Int?
        /// Times an on-demand name was dropped after failures (its cool-down doubles each time).
        var drops = 0
    }

    struct Books {
        var jobs: [String: Job] = [:]
        var onDemandStarts: [Int] = []
        var budget = OnDemandBudget()
        /// The budget changed since it was last written to `acme/on-demand-names`.
        var budgetChanged = false
        var results: [String: Int] = [:]
        var stopping = false
    }

    public let settings: ACMESettings
    public let board = ChallengeBoard()
    public let storage: ACMEStorage
    public let challenges: [ChallengeType]
    let logger: Logger
    let books = Mutex(Books())
    let wake = WorkerSignal()
    /// Held while the budget file is written, so two workers never write older over newer.
    let budgetFile = Mutex(())
    struct Callbacks {
        /// After a certificate is stored: the server reloads its certificates.
        let certificatesChanged: @Sendable () -> Void
        /// After an order failed: paused handshakes look again (and fail).
        let orderFailed: @Sendable () -> Void
    }

    private let callbacks = Mutex<Callbacks?>(nil)
    /// Read by `prepare()` at start-up, used by `start()`.
    private let accountKey = Mutex<ECKey?>(nil)

    /// Backoff after the first failure, doubling to a day.
    static let firstBackoff = 60
    static let longestBackoff = 86_400

    public init(settings: ACMESettings, certificates: String, challenges: [ChallengeType], logger: Logger) {
        self.settings = settings
        storage = ACMEStorage(certificates: certificates)
        self.challenges = challenges
        self.logger = logger
    }

    /// Reads (or makes, the first time) the account key: a folder that cannot hold it fails
    /// start-up rather than every order.
    public func prepare() throws(ACMEProblem) {
        let key = try storage.accountKey()
        accountKey.withLock { $0 = key }
        loadBudget()
    }

    /// Starts the workers, with what to do after each order.
    public func start(
        certificatesChanged: @escaping @Sendable () -> Void, orderFailed: @escaping @Sendable () -> Void
    ) throws(ACMEProblem) {
        callbacks.withLock { $0 = Callbacks(certificatesChanged: certificatesChanged, orderFailed: orderFailed) }
        if accountKey.withLock({ $0 }) == nil { try prepare() }
        guard let key = accountKey.withLock({ $0 }) else { return }
        for index in 0..<ACMESettings.concurrentOrders {
            let made = ACMEClient(
                http: HTTPSClient(caFile: settings.directoryCA, timeout: 10, systemTrust: true),
                directoryURL: settings.directory, key: key, email: settings.email,
                userAgent: "aasa-server/\(Version.current) acme")
            // The client is used by this thread alone from here on.
            nonisolated(unsafe) let client = made
            let thread = Thread { [self] in work(client) }
            thread.name = "aasa-acme-\(index)"
            thread.start()
        }
    }

    public func stop() {
        books.withLock { $0.stopping = true }
        wake.wake()
    }

    /// The plans of the latest snapshot and the certificates it loaded: what is covered and
    /// not due is valid; the rest is scheduled (keeping any backoff a plan already has).
    public func update(
        plans: [CertificatePlan], certificates: [CertificateStore.Certificate], now: Int = Int(time(nil))
    ) {
        let wanted = Dictionary(plans.map { ($0.primary, $0) }, uniquingKeysWith: { first, _ in first })
        books.withLock { books in
            // A plan gone from the sites goes. An on-demand name is no plan until its
            // certificate is loaded, so its job stays while it waits, orders or was just issued.
            for (primary, job) in books.jobs where wanted[primary] == nil && job.state != .ordering {
                if job.plan.onDemand && job.state != .valid { continue }
                books.jobs[primary] = nil
            }
            for (primary, plan) in wanted {
                let covering = certificates.filter { certificate in
                    plan.names.allSatisfy { CertificateStore.covers(certificate.names, $0) }
                        && certificate.notAfter > now
                }.max { $0.notAfter < $1.notAfter }
                var job =
                    books.jobs[primary]
                    ?? Job(plan: plan, state: .scheduled, dueAt: now, renewal: covering != nil)
                job.plan = plan
                if let covering {
                    let renewAt = covering.notBefore + (covering.notAfter - covering.notBefore) * 2 / 3
                    job.issuer = covering.issuer
                    job.notAfter = covering.notAfter
                    job.renewal = true
                    if job.state != .ordering {
                        if renewAt > now {
                            job.state = .valid
                            job.dueAt = renewAt
                            job.failures = 0
                        } else if job.state != .scheduled || job.failures == 0 {
                            job.state = .scheduled
                            job.dueAt = max(now, job.failures == 0 ? now : job.dueAt)
                        }
                    }
                } else if job.state == .valid || (job.state == .issued && job.dueAt <= now) {
                    // Gone from the folder, or issued but never loaded: order again.
                    job.state = .scheduled
                    job.dueAt = now
                }
                books.jobs[primary] = job
            }
        }
        wake.wake()
    }

    /// Every plan's certificate, for the status page.
    public func managed(now: Int = Int(time(nil))) -> [ManagedCertificate] {
        books.withLock { books in
            books.jobs.values.map { job in
                ManagedCertificate(
                    names: job.plan.names, state: job.state, onDemand: job.plan.onDemand, issuer: job.issuer,
                    notAfter: job.notAfter, nextAttempt: job.state == .ordering ? nil : job.dueAt,
                    lastError: job.lastError, failures: job.failures)
            }.sorted { $0.names[0] < $1.names[0] }
        }
    }

    /// Orders and renewals by result (`aasa_acme_orders_total`, `aasa_acme_renewals_total`).
    public func results() -> [String: Int] {
        books.withLock { $0.results }
    }

    // MARK: The workers

    private func work(_ client: ACMEClient) {
        let issuer = CertificateIssuer(client: client, board: board, challenges: challenges, logger: logger)
        while let primary = nextJob() {
            run(primary, issuer: issuer)
        }
    }

    /// Blocks until a job is due (renewals first, so a flood of on-demand names cannot hold
    /// up a certificate that is expiring; then on-demand names, as a handshake waits for
    /// them; then the oldest due), marks it ordering.
    private func nextJob() -> String? {
        wake.next { () -> WorkerSignal.Step<String> in
            let now = Int(time(nil))
            return books.withLock { books in
                if books.stopping { return .stop }
                let due = books.jobs.filter { $0.value.state == .scheduled && $0.value.dueAt <= now }
                let chosen = due.min { left, right in
                    (left.value.rank, left.value.dueAt, left.key) < (right.value.rank, right.value.dueAt, right.key)
                }
                if let chosen {
                    books.jobs[chosen.key]?.state = .ordering
                    return .take(chosen.key)
                }
                let waiting = books.jobs.values.filter { $0.state == .scheduled || $0.state == .valid }.map(\.dueAt)
                let next = waiting.min() ?? now + 3600
                return .wait(Double(max(1, min(next, now + 86_400) - now)))
            }
        }
    }

    private func run(_ primary: String, issuer: CertificateIssuer) {
        guard let job = books.withLock({ $0.jobs[primary] }) else { return }
        let kind = job.renewal ? "renewal" : "order"
        if job.plan.onDemand && !job.renewal { saveBudget() }
        guard let lock = storage.lock(primary) else {
            // Another replica is ordering it: its certificate arrives through the folder.
            logger.info("acme: another process holds the lock for \(primary); waiting for its certificate")
            books.withLock {
                $0.jobs[primary]?.state = .scheduled
                $0.jobs[primary]?.dueAt = Int(time(nil)) + 60
            }
            return
        }
        defer { storage.unlock(lock) }
        let started = Date()
        do {
            let issued = try issuer.issue(job.plan.names)
            try storage.store(issued, name: primary)
            let seconds = String(format: "%.2f", Date().timeIntervalSince(started))
            logger.info(
                "acme: certificate stored",
                metadata: [
                    "names": "\(job.plan.names.joined(separator: ","))",
                    "folder": "\(storage.certificateFolder(primary))",
                    "seconds": "\(seconds)", "kind": "\(kind)",
                ])
            books.withLock { books in
                books.jobs[primary]?.state = .issued
                // The reload that loads it comes next; if none does within 5 minutes, order again.
                books.jobs[primary]?.dueAt = Int(time(nil)) + 300
                books.jobs[primary]?.failures = 0
                books.jobs[primary]?.lastError = nil
                books.results[job.renewal ? "renewal_valid" : "order_valid", default: 0] += 1
            }
            callbacks.withLock { $0 }?.certificatesChanged()
        } catch {
            let (delay, dropped) = failed(primary, error, renewal: job.renewal, now: Int(time(nil)))
            var metadata: Logger.Metadata = [
                "names": "\(job.plan.names.joined(separator: ","))", "type": "\(error.type)",
                "detail": "\(error.detail)", "status": "\(error.status.map(String.init) ?? "-")",
                "retry_in": "\(delay)",
            ]
            if let asked = error.retryAfter { metadata["retry_after"] = "\(asked)" }
            if dropped { metadata["dropped"] = "until a handshake asks after the cool-down" }
            logger.error("acme: \(kind) failed", metadata: metadata)
            callbacks.withLock { $0 }?.orderFailed()
        }
    }

    /// Exponential backoff with ±25 % jitter, never sooner than the CA asked (RFC 8555 §6.6)
    /// but never more than a day for what it asks (docs/acme.md, "Numbers from the CA").
    static func backoff(failures: Int, retryAfter: Int?) -> Int {
        let base = min(firstBackoff << min(max(failures, 1) - 1, 20), longestBackoff)
        let jittered = Int(Double(base) * Double.random(in: 0.75...1.25))
        return max(jittered, min(max(retryAfter ?? 0, 0), longestBackoff))
    }

    /// `now + seconds`, saturating instead of trapping.
    static func later(_ now: Int, _ seconds: Int) -> Int {
        let (sum, overflow) = now.addingReportingOverflow(seconds)
        return overflow ? (seconds > 0 ? .max : .min) : sum
    }
}
