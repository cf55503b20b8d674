import AASALoop
import AASASiteServing
import AASASites
import AASASystem
import AASATransport
import AssociationKit
import Foundation
@preconcurrency import Glibc
import Logging
import Synchronization

/// Asks a platform's cache (a `CacheSource`: Apple's CDN, Google's view) about every exact
/// site name and alias whose file it holds and compares its copy with what was served
/// (docs/watches.md, "Apple's CDN" and "Google's view"): each domain every `interval` (±10 %),
/// sooner after its file changed until the cache caught up; all questions together within
/// `ratePerMinute`, oldest due first, a few in flight at once. One event per change of a
/// domain's state. Its threads (`aasa-cdn-N`, `aasa-google-N`) are joined by `waitUntilStopped`.
public final class CacheWatcher: Sendable, ServerComponent {
    /// A site's watched file at the last update and its meaning, computed once per file.
    struct ServedFile {
        let file: PreparedFile
        let fingerprint: MeaningFingerprint?
    }

    struct Books {
        var domains: [String: DomainWatch] = [:]
        /// By site folder: unchanged files (the same object) are not parsed again.
        var sites: [String: ServedFile] = [:]
        /// Checks by the state they found.
        var checks: [String: Int] = [:]
        /// The earliest time (seconds, fractional) the next fetch may start.
        var nextSlot: Double = 0
        var stopping = false
    }

    /// Questions in flight at once, so one slow answer never holds up the others.
    static let concurrentFetches = 4
    /// History kept per domain: the versions served before the current one.
    static let historyDepth = 16

    /// A watch that stops is logged; serving never depends on it.
    let policy = FailurePolicy.logAndContinue
    let failures = FailureReport()
    private let threads = ThreadSet()
    let source: any CacheSource
    let client: HTTPSClient
    let logger: Logger
    let books = Mutex(Books())
    private let wake = WorkerSignal()
    /// Counts each start: a thread of an earlier start ends at its next look, so a watch
    /// stopped and started again (a replica that lost and regained the watches) runs one set.
    private let generation = Atomic<Int>(0)
    /// Where the watch runs when replicas share a store (`WatchLeader`): 0 here alone (no
    /// store), 1 here for the replicas, 2 in another replica (results read from the store).
    let placement = Atomic<Int>(0)
    let userAgent: String

    init(source: any CacheSource, logger: Logger) {
        self.source = source
        client = HTTPSClient(caFile: source.caFile, timeout: source.fetchTimeout, systemTrust: true)
        self.logger = logger
        userAgent = "aasa-server/\(Version.current) (\(source.name)-watch)"
    }

    /// Takes the domains of a published snapshot: new ones are due now, gone ones go, and a
    /// domain whose file changed keeps the old meaning in its history and is due now.
    func update(_ snapshot: ServerSnapshot, now: Int = Int(time(nil))) {
        let catalog = snapshot.catalog
        // Every watched domain and the site folder whose file it serves.
        var domains: [String: String] = [:]
        let source = source
        for (name, record) in catalog.records where !name.hasPrefix("*.") && record.content.flatMap(source.file) != nil
        {
            domains[name] = name
        }
        for (alias, target) in catalog.aliases where catalog.records[target]?.content.flatMap(source.file) != nil {
            domains[alias] = target
        }
        let previous = books.withLock { $0.sites }
        var sites: [String: ServedFile] = [:]
        for site in Set(domains.values) {
            guard let file = catalog.records[site]?.content.flatMap(source.file) else { continue }
            sites[site] =
                previous[site].flatMap { $0.file === file ? $0 : nil }
                ?? ServedFile(file: file, fingerprint: source.meaning(of: file))
        }
        books.withLock { books in
            for name in books.domains.keys where domains[name] == nil { books.domains[name] = nil }
            for (name, site) in domains {
                guard let served = sites[site] else { continue }
                guard var watch = books.domains[name] else {
                    books.domains[name] = DomainWatch(site: site, current: served.fingerprint, dueAt: now)
                    continue
                }
                watch.site = site
                if previous[site]?.file !== served.file {
                    watch.serve(served.fingerprint, now: now)
                    watch.dueAt = min(watch.dueAt, now)
                }
                books.domains[name] = watch
            }
            books.sites = sites
        }
        wake.wake()
    }

    var name: String { "aasa-\(source.name)" }

    /// Starts the fetching threads; one that cannot be made stops those made and is thrown.
    func start() throws {
        let current = generation.add(1, ordering: .sequentiallyConsistent).newValue
        books.withLock { $0.stopping = false }
        for index in 0..<Self.concurrentFetches {
            do {
                try threads.start("\(name)-\(index)") { [self] in
                    while let domain = nextDomain(current) { check(domain) }
                }
            } catch {
                stop()
                waitUntilStopped()
                throw error
            }
        }
        logger.info(
            "\(source.name): watching \(source.title)",
            metadata: [
                "url": "\(source.url)", "interval": .stringConvertible(source.interval),
                "rate_per_minute": .stringConvertible(source.ratePerMinute),
            ])
    }

    func stop() {
        books.withLock { $0.stopping = true }
        wake.wake()
    }

    /// Joins every thread started, of this start and earlier ones (a fetch under way ends
    /// within the source's timeout).
    func waitUntilStopped() {
        threads.join()
    }

    /// Waits for the next fetch slot and the oldest due domain, and claims it.
    private func nextDomain(_ current: Int) -> String? {
        let spacing = 60 / Double(source.ratePerMinute)
        return wake.next { () -> WorkerSignal.Step<String> in
            let now = Date().timeIntervalSince1970
            return books.withLock { books in
                if books.stopping || generation.load(ordering: .sequentiallyConsistent) != current { return .stop }
                var best: (name: String, watch: DomainWatch)?
                for (name, watch) in books.domains where !watch.inFlight {
                    if let current = best, (current.watch.dueAt, current.name) <= (watch.dueAt, name) { continue }
                    best = (name, watch)
                }
                guard let best else { return .wait(60) }
                let start = max(Double(best.watch.dueAt), books.nextSlot)
                guard start <= now else { return .wait(start - now) }
                books.domains[best.name]?.inFlight = true
                books.nextSlot = max(books.nextSlot, now) + spacing
                return .take(best.name)
            }
        }
    }

    private func check(_ domain: String) {
        let answer = fetch(domain)
        let now = Int(time(nil))
        let change = books.withLock { books -> (before: CacheState, after: DomainWatch)? in
            guard var watch = books.domains[domain] else { return nil }
            let before = watch.apply(answer, now: now)
            books.checks[watch.state.rawValue, default: 0] += 1
            watch.inFlight = false
            watch.schedule(interval: source.interval, now: now, jitter: Double.random(in: -0.1...0.1))
            books.domains[domain] = watch
            return (before, watch)
        }
        wake.wake()
        guard let change, change.before != change.after.state else { return }
        var metadata: Logger.Metadata = [
            "domain": "\(domain)", "from": "\(change.before.rawValue)", "to": "\(change.after.state.rawValue)",
        ]
        if let reason = change.after.reason { metadata["reason"] = "\(reason)" }
        if let since = change.after.outOfSyncSince { metadata["out_of_sync_since"] = "\(HTTPDate.iso8601(since))" }
        let subject = "\(source.name): \(source.title)"
        switch change.after.state {
        case .inSync: logger.info("\(subject) has the current file", metadata: metadata)
        case .stale: logger.warning("\(subject) has an earlier version", metadata: metadata)
        case .differs: logger.warning("\(subject) has a file this server never served", metadata: metadata)
        case .failing: logger.warning("\(subject) cannot fetch the file from here", metadata: metadata)
        case .error, .unchecked: logger.warning("\(subject) could not be asked", metadata: metadata)
        }
    }

    /// One GET of what the cache holds for the domain: gzip accepted, verified TLS, the body
    /// read up to `HTTPClientResponse.bodyLimit` before and after gunzip (past it: an error, closed).
    func fetch(_ domain: String) -> CacheAnswer {
        guard let url = source.request(for: domain) else { return .error("not an https URL: \(source.url)") }
        return source.answer(
            client.fetch(host: url.host, port: url.port, path: url.path, userAgent: userAgent, requireVerified: true)
                .map { $0.1 })
    }

    /// The site folders with a domain whose cached copy is not in sync (the listings' filter).
    func sitesNotInSync() -> Set<String> {
        books.withLock { Set($0.domains.values.filter { $0.state != .inSync }.map(\.site)) }
    }

    /// A copy of one domain's watch.
    func watch(_ domain: String) -> DomainWatch? {
        books.withLock { $0.domains[domain] }
    }

    /// Counts per state (every state, 0 when none), checks by result, and the domains out
    /// of sync, longest first, at most `limit`.
    func summary(limit: Int, now: Int = Int(time(nil))) -> (
        states: [CacheState: Int], checks: [String: Int], outOfSync: [(domain: String, seconds: Int)],
        failing: [String]
    ) {
        books.withLock { books in
            var states = Dictionary(uniqueKeysWithValues: CacheState.allCases.map { ($0, 0) })
            var outOfSync: [(domain: String, seconds: Int)] = []
            var failing: [String] = []
            for (name, watch) in books.domains {
                states[watch.state, default: 0] += 1
                if watch.state.isOutOfSync, let since = watch.outOfSyncSince {
                    outOfSync.append((name, max(0, now - since)))
                }
                if watch.state == .failing { failing.append(name) }
            }
            outOfSync.sort { ($1.seconds, $0.domain) < ($0.seconds, $1.domain) }
            return (states, books.checks, Array(outOfSync.prefix(limit)), Array(failing.sorted().prefix(limit)))
        }
    }
}
