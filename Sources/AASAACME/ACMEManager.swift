import AASAStore
import AASASystem
import AASATransport
import AssociationKit
import Foundation
@preconcurrency import Glibc
import Logging
import Synchronization

/// Keeps a certificate for every plan (docs/acme.md, "Automatic certificates"): orders what is
/// missing from the configured issuers in order (one that fails hands the name to the next),
/// renews inside the CA's renewal window when it offers renewal information (RFC 9773,
/// `ACMEManager+Renewal.swift`; never sooner than a day after the certificate before, the
/// renewal floor) and else when a third of the lifetime remains, retries
/// failures with exponential backoff and jitter (never sooner than the CA's Retry-After,
/// never later than a day or a tenth of the time left), and takes on-demand names from
/// handshakes within an hourly rate and a weekly budget per registered domain
/// (`ACMEManager+OnDemand.swift`). A few worker threads run the orders
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
        /// The issuer (index into `issuers`) the next order goes to.
        var issuerIndex = 0
        /// The issuer's label the held certificate came from, when known.
        var issuedBy: String?
        var held: HeldCertificate?
        /// The CA's window, the moment chosen in it, the next check, and which issuer answered.
        var window: RenewalInfo?
        var renewAt: Int?
        var checkAt: Int?
        var windowIssuer: Int?
        var checking = false
        /// When this process last stored a certificate for the plan (the renewal floor counts
        /// from it or from the held certificate's notBefore, the later).
        var orderedAt: Int?
        /// The renewal the CA asked for was put off to the end of the renewal floor.
        var deferred = false
        /// A held certificate covers every name of the plan (the last update found one).
        var covered = false
        /// The names an alias-driven order was last charged to the budget for.
        var chargedNames: [String]?
        /// A failed order is being booked while its lock is still held: no worker takes it.
        var finishing = false
        /// Pre-flight checks failed in a row (`waiting_dns`); the next waits 2^n minutes, at most an hour.
        var dnsWaits = 0
    }

    /// What a worker takes: an order, or a renewal-information check.
    enum Task {
        case order(String)
        case check(String)
    }

    struct Books {
        var jobs: [String: Job] = [:]
        var onDemandStarts: [Int] = []
        var budget = OnDemandBudget()
        /// The budget changed since it was last written to `acme/on-demand-names`.
        var budgetChanged = false
        var results: [String: Int] = [:]
        /// The last on-demand names refused, newest last (`recentRefusals` of them).
        var refused: [(name: String, refusal: Refusal)] = []
        /// The plans were set once (start-up); later new plans with aliases settle first.
        var planned = false
        /// What the pre-flight checks cost so far (`aasa_acme_preflight_*`).
        var preflights = PreflightTotals()
        var stopping = false
        /// The tasks the last look found due, the first to take last (`look(now:)`).
        var ready: [Task] = []
        /// When the last look was: a job that became due since waits at most a second.
        var lookedAt = Int.min
        /// The earliest moment a job not due at the last look comes due (an order or a check).
        var nextDue: Int?
        /// Jobs were added or made due at once (a reload, an on-demand name, the next
        /// issuer after a failure): the next take looks at every job again first.
        var lookAgain = true
    }

    public let settings: ACMESettings
    /// `settings.issuers`, in the order orders try them.
    public let issuers: [ACMEIssuerSettings]
    public let board: ChallengeBoard
    public let storage: ACMEStorage
    /// What replicas share: locks, backoffs and pending challenges (the certificates folder's
    /// `acme/` unless `--store` names another).
    public let store: any SharedStore
    public let challenges: [ChallengeType]
    /// Asks `--acme-on-demand-ask` about on-demand names, when given.
    let asker: OnDemandAsk?
    /// The check before an order, nil when `--acme-preflight off`.
    let preflight: Preflight?
    /// The first wait of a name that is `waiting_dns`, doubling to `preflightRetryLimit`.
    let preflightRetry: Int
    /// Sixty times the first wait: an hour.
    var preflightRetryLimit: Int { preflightRetry * 60 }
    /// What the on-demand budget counts registered domains by (`RegisteredDomain`).
    let publicSuffixes: PublicSuffixList
    let logger: Logger
    let books = Mutex(Books())
    let wake = WorkerSignal()
    /// The workers (`concurrentOrders`), joined by `waitUntilStopped`.
    private let workers = ThreadSet()
    /// Held while the budget file is written, so two workers never write older over newer.
    let budgetFile = Mutex(())
    struct Callbacks {
        /// After a certificate is stored: the server reloads its certificates.
        let certificatesChanged: @Sendable () -> Void
        /// After an order failed: paused handshakes look again (and fail).
        let orderFailed: @Sendable () -> Void
    }

    let callbacks = Mutex<Callbacks?>(nil)
    /// Read by `prepare()` at start-up, used by `start()`: per issuer, its account key and
    /// external account binding.
    private let accounts = Mutex<[(ECKey, ExternalAccountBinding?)]?>(nil)

    /// Backoff after the first failure, doubling to a day.
    static let firstBackoff = 60
    static let longestBackoff = 86_400

    /// `store` is what replicas share (nil: the certificates folder's `acme/`).
    public init(
        settings: ACMESettings, certificates: String, challenges: [ChallengeType], publicSuffixes: PublicSuffixList,
        store: (any SharedStore)? = nil, logger: Logger
    ) {
        self.settings = settings
        self.publicSuffixes = publicSuffixes
        issuers = settings.issuers
        storage = ACMEStorage(certificates: certificates)
        let shared = store ?? storage.files
        self.store = shared
        let challengeSource = StoreChallenges(store: shared)
        board = ChallengeBoard(source: challengeSource)
        self.challenges = challenges
        self.logger = logger
        if let problem = challengeSource.watchProblem {
            // A folder store's challenges seen at once need inotify (docs/acme.md, "Several replicas").
            logger.warning(
                "acme: other replicas' challenges are not watched; each is looked up when the CA checks it",
                metadata: ["detail": "\(problem)"])
        }
        asker = settings.onDemandAsk.flatMap { OnDemandAsk(url: $0, caFile: settings.onDemandAskCA, logger: logger) }
        preflight =
            settings.preflight
            ? Preflight(
                resolver: settings.preflightResolver.map { .server(DNSClient(server: $0)) } ?? .system,
                port: settings.preflightPort, requestsHTTP: challenges.contains(.http01)) : nil
        preflightRetry = Self.preflightFirstRetry()
    }

    /// Reads (or makes, the first time) each issuer's account key and reads its EAB key: a
    /// folder that cannot hold them fails start-up rather than every order. A profile the
    /// issuer's directory does not offer fails start-up too; a directory that cannot be
    /// reached now is checked at its first order instead.
    public func prepare() throws(ACMEProblem) {
        try mirrorAccounts()
        mirrorCertificates()
        var made: [(ECKey, ExternalAccountBinding?)] = []
        for (index, issuer) in issuers.enumerated() {
            let key = try storage.accountKey(directory: issuer.directory, adoptLegacy: index == 0)
            var binding: ExternalAccountBinding?
            if let kid = issuer.eabKid, let file = issuer.eabHmacKeyFile {
                binding = try ExternalAccountBinding(kid: kid, file: file)
            }
            made.append((key, binding))
        }
        accounts.withLock { $0 = made }
        loadBudget()
        for (index, issuer) in issuers.enumerated() {
            guard let profile = issuer.profile else { continue }
            let offered: [String: String]
            do { offered = try client(index, made).profiles() } catch {
                logger.warning(
                    "acme: cannot check the profile now; it is checked at the issuer's first order",
                    metadata: ["issuer": "\(issuer.label)", "profile": "\(profile)", "detail": "\(error)"])
                continue
            }
            guard offered[profile] != nil else {
                let problem = ACMEProblem.unknownProfile(profile, offered: offered)
                throw ACMEProblem(type: problem.type, detail: "\(issuer.directory): \(problem.detail)")
            }
        }
    }

    /// A client for issuer `index` with its account; used by one thread at a time.
    private func client(_ index: Int, _ made: [(ECKey, ExternalAccountBinding?)]) -> ACMEClient {
        let issuer = issuers[index]
        return ACMEClient(
            http: HTTPSClient(caFile: issuer.ca, timeout: 10, systemTrust: true), directoryURL: issuer.directory,
            key: made[index].0, email: settings.email, userAgent: settings.userAgent,
            binding: made[index].1)
    }

    /// Starts the workers, with what to do after each order. A thread that cannot be made (the
    /// thread limit) stops those made and fails the start.
    public func start(
        certificatesChanged: @escaping @Sendable () -> Void, orderFailed: @escaping @Sendable () -> Void
    ) throws(ACMEProblem) {
        callbacks.withLock { $0 = Callbacks(certificatesChanged: certificatesChanged, orderFailed: orderFailed) }
        if accounts.withLock({ $0 }) == nil { try prepare() }
        guard let made = accounts.withLock({ $0 }) else { return }
        do throws(SystemError) {
            for index in 0..<ACMESettings.concurrentOrders {
                let clients = issuers.indices.map { client($0, made) }
                // The clients are used by this thread alone from here on.
                nonisolated(unsafe) let owned = clients
                try workers.start("aasa-acme-\(index)") { [self] in work(owned) }
            }
            try asker?.start { [self] name, answer in answered(name, answer) }
        } catch {
            stop()
            waitUntilStopped()
            throw ACMEProblem(type: "threads", detail: "cannot start its workers: \(error)")
        }
        // What another replica changed (PostgreSQL tells): a posted challenge is read ahead
        // into the board; a certificate is copied here, and the file watcher reloads.
        store.observeChanges { [self] key in
            if let challenge = StoreChallenges.challenge(key) { board.noticed(challenge) }
            mirrorChange(key)
        }
    }

    public func stop() {
        books.withLock { $0.stopping = true }
        wake.wake()
        asker?.stop()
    }

    /// Joins the workers and the asker's threads (after `stop`): an order under way is
    /// abandoned at its next pause between polls (`rest`), the request in flight bounded by
    /// the client's timeout.
    public func waitUntilStopped() {
        workers.join()
        asker?.waitUntilStopped()
    }

    /// The plans of the latest snapshot and the certificates it loaded: what is covered and
    /// not due is valid; the rest is scheduled (keeping any backoff a plan already has).
    public func update(
        plans: [CertificatePlan], certificates: [CertificateStore.Certificate], now: Int = Int(time(nil))
    ) {
        let wanted = Dictionary(plans.map { ($0.primary, $0) }, uniquingKeysWith: { first, _ in first })
        // The certificates by the names they cover, so each plan looks only at those naming its
        // primary name (a wildcard under its parent's key): one pass, not plans × certificates.
        var byName: [String: [Int]] = [:]
        for (position, certificate) in certificates.enumerated() where certificate.notAfter > now {
            for name in certificate.names { byName[name, default: []].append(position) }
        }
        func candidates(_ host: String) -> [Int] {
            let wildcard = host.firstIndex(of: ".").flatMap { byName["*" + host[$0...]] } ?? []
            return ((byName[host] ?? []) + wildcard).sorted()  // certificates' order, as before
        }
        let managedPrefix = managedFolderPrefix
        books.withLock { books in
            let startUp = !books.planned
            books.planned = true
            books.lookAgain = true
            // A plan gone from the sites goes. An on-demand name is no plan until its
            // certificate is loaded, so its job stays while it waits, orders or was just issued.
            for (primary, job) in books.jobs where wanted[primary] == nil && job.state != .ordering {
                if job.plan.onDemand && job.state != .valid { continue }
                books.jobs[primary] = nil
            }
            for (primary, plan) in wanted {
                let covering = candidates(plan.primary).map { certificates[$0] }.filter { certificate in
                    plan.names.allSatisfy { CertificateStore.covers(certificate.names, $0) }
                }.max { $0.notAfter < $1.notAfter }
                let previous = books.jobs[primary]
                var job = previous ?? Job(plan: plan, state: .scheduled, dueAt: now, renewal: covering != nil)
                job.plan = plan
                job.covered = covering != nil
                if let covering {
                    hold(&job, covering, now: now, managedPrefix: managedPrefix)
                    let renewAt = job.renewAt ?? job.held?.thirdLeft ?? now
                    job.issuer = covering.issuer
                    job.notAfter = covering.notAfter
                    job.renewal = true
                    if job.state != .ordering {
                        if renewAt > now {
                            job.state = .valid
                            job.dueAt = renewAt
                            job.failures = 0
                            job.dnsWaits = 0
                        } else if job.state != .waitingDNS && (job.state != .scheduled || job.failures == 0) {
                            // A renewal waiting for its DNS keeps its next check (a reload is no reason).
                            job.state = .scheduled
                            job.dueAt = max(now, job.failures == 0 ? now : job.dueAt)
                        }
                    }
                } else if job.state == .valid || (job.state == .issued && job.dueAt <= now) {
                    // Gone from the folder, or issued but never loaded: order again.
                    job.state = .scheduled
                    job.dueAt = now
                }
                // Aliases changed (or a plan of aliases appeared after start-up) and not covered:
                // wait for the edits to settle, so a burst of them is one order.
                let changed = previous.map { $0.plan.names != plan.names } ?? !startUp
                if changed, covering == nil, plan.aliases, job.state == .scheduled {
                    job.dueAt = max(job.dueAt, now + ACMESettings.aliasSettle)
                }
                books.jobs[primary] = job
            }
        }
        wake.wake()
    }

    /// Orders and renewals by result and issuer (`aasa_acme_orders_total`,
    /// `aasa_acme_renewals_total`: keys `order_valid|LABEL`), and on-demand refusals.
    public func results() -> [String: Int] {
        books.withLock { $0.results }
    }

    // MARK: The workers

    /// A pause between an order's polls that `stop` ends at once (the signal the workers wait
    /// on): false when stopping, so a stop never waits out an order's deadline (180 s).
    private func rest(_ seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        let stopped: Bool? = wake.next { () -> WorkerSignal.Step<Bool> in
            if books.withLock({ $0.stopping }) { return .take(true) }
            let left = end.timeIntervalSinceNow
            return left <= 0 ? .take(false) : .wait(left)
        }
        return stopped != true
    }

    private func work(_ clients: [ACMEClient]) {
        let orderers = clients.map {
            var issuer = CertificateIssuer(client: $0, board: board, challenges: challenges, logger: logger)
            issuer.rest = { [self] seconds in rest(seconds) }
            return issuer
        }
        while let task = nextTask() {
            switch task {
            case .order(let primary): run(primary, orderers)
            case .check(let primary): check(primary, clients)
            }
        }
    }

    /// Blocks until an order or a check is due (orders first: renewals, so a flood of
    /// on-demand names cannot hold up a certificate that is expiring; then on-demand names,
    /// as a handshake waits for them; then the oldest due) and marks it taken. The due tasks
    /// come from one look over every job (`Books.look`), taken one by one, so 10,000 plans
    /// due at once cost one pass over the jobs, not one per task (quadratic: minutes of CPU).
    private func nextTask() -> Task? {
        wake.next { () -> WorkerSignal.Step<Task> in
            let now = Int(time(nil))
            return books.withLock { books in
                if books.stopping { return .stop }
                if books.lookAgain || books.ready.isEmpty || books.lookedAt != now { books.look(now: now) }
                while let task = books.ready.popLast() {
                    switch task {
                    case .order(let primary):
                        guard let job = books.jobs[primary], job.isOrderDue(now: now) else { continue }
                        books.jobs[primary]?.state = .ordering
                    case .check(let primary):
                        guard let job = books.jobs[primary], job.isCheckDue(now: now) else { continue }
                        books.jobs[primary]?.checking = true
                    }
                    return .take(task)
                }
                return .wait(Double(max(1, min(books.nextDue ?? now + 3600, now + 86_400) - now)))
            }
        }
    }

    private func run(_ primary: String, _ orderers: [CertificateIssuer]) {
        guard let held = books.withLock({ $0.jobs[primary] }) else { return }
        let claim = claim(primary, names: held.plan.names, holdingUntil: held.notAfter ?? 0, now: Int(time(nil)))
        guard case .order(let lock, let backoff) = claim else { return book(claim, for: primary, now: Int(time(nil))) }
        // Nothing is ordered for a name that does not point here (the CA would fail it).
        guard passesPreflight(primary, names: held.plan.names) else { return store.unlock(lock) }
        // A failure elsewhere whose backoff ended: go on from its count and its next issuer.
        if let backoff {
            books.withLock { books in
                guard var job = books.jobs[primary] else { return }
                job.failures = max(job.failures, backoff.failures)
                job.issuerIndex = backoff.issuerIndex % issuers.count
                books.jobs[primary] = job
            }
        }
        guard let job = books.withLock({ $0.jobs[primary] }) else { return store.unlock(lock) }
        let kind = job.renewal ? "renewal" : "order"
        let index = job.issuerIndex % issuers.count
        let settings = issuers[index]
        // `replaces` names a certificate of this CA only, and only when its renewalInfo answered.
        let replaces = job.renewal && job.windowIssuer == index ? job.held?.certID : nil
        if job.plan.onDemand && !job.renewal { saveBudget() }
        if job.plan.aliases && !job.covered && job.chargedNames != job.plan.names {
            guard chargeAliasOrder(primary, job.plan.names) else { return store.unlock(lock) }
            saveBudget()
        }
        let started = Date()
        let outcome = Result { () throws(ACMEProblem) in
            let issued = try orderers[index].issue(job.plan.names, profile: settings.profile, replaces: replaces)
            try storage.store(issued, name: primary, directory: settings.directory)
            share(issued, name: primary, directory: settings.directory)
        }
        do {
            try outcome.get()
            clearBackoff(primary)
            store.unlock(lock)
            let seconds = (Date().timeIntervalSince(started) * 100).rounded() / 100
            logger.info(
                "acme: certificate stored",
                metadata: [
                    "names": "\(job.plan.names.joined(separator: ","))",
                    "folder": "\(storage.certificateFolder(primary))",
                    "seconds": .stringConvertible(seconds), "kind": "\(kind)", "issuer": "\(settings.label)",
                    "replaces": "\(replaces ?? "-")",
                ])
            books.withLock { books in
                books.jobs[primary]?.state = .issued
                // The reload that loads it comes next; if none does within 5 minutes, order again.
                books.jobs[primary]?.dueAt = Int(time(nil)) + 300
                books.jobs[primary]?.failures = 0
                books.jobs[primary]?.lastError = nil
                books.jobs[primary]?.issuedBy = settings.label
                books.jobs[primary]?.issuerIndex = 0
                books.jobs[primary]?.orderedAt = Int(time(nil))
                books.jobs[primary]?.dnsWaits = 0
                books.results[(job.renewal ? "renewal_valid|" : "order_valid|") + settings.label, default: 0] += 1
            }
            callbacks.withLock { $0 }?.certificatesChanged()
        } catch  where error.type == ACMEProblem.stoppedType {
            // Not the CA's failure: nothing booked or shared, so the next start orders it again.
            store.unlock(lock)
            logger.info(
                "acme: \(kind) abandoned at stop", metadata: ["names": "\(job.plan.names.joined(separator: ","))"])
        } catch {
            // Booked and shared while the lock is held, so no replica orders the name in between;
            // `finishing` keeps this process's own workers off it until the lock is released
            // (a failure hands the name to the next issuer at once, and that worker must find
            // the lock free).
            books.withLock { $0.jobs[primary]?.finishing = true }
            let (delay, dropped) = failed(primary, error, renewal: job.renewal, now: Int(time(nil)))
            shareBackoff(primary)
            store.unlock(lock)
            books.withLock { $0.jobs[primary]?.finishing = false }
            wake.wake()
            var metadata: Logger.Metadata = [
                "names": "\(job.plan.names.joined(separator: ","))", "issuer": "\(settings.label)",
                "next_issuer": "\(issuers[(index + 1) % issuers.count].label)", "type": "\(error.type)",
                "detail": "\(error.detail)", "retry_in": .stringConvertible(delay),
            ]
            // Numbers stay numbers in JSON events (docs/usage.md, "Serve": logs).
            if let status = error.status { metadata["status"] = .stringConvertible(status) }
            if let asked = error.retryAfter { metadata["retry_after"] = .stringConvertible(asked) }
            if dropped { metadata["dropped"] = "until a handshake asks after the cool-down" }
            logger.error("acme: \(kind) failed", metadata: metadata)
            callbacks.withLock { $0 }?.orderFailed()
        }
    }
}
