import AASASites
import AASATransport
import AssociationKit
import Foundation
@preconcurrency import Glibc
import Logging
import Synchronization

/// Asks Apple's CDN for every exact site name and alias and compares its copy with what was
/// served (README, "Apple's CDN"): each domain every `interval` (±10 %), sooner after its
/// file changed until the CDN caught up; all fetches together within `ratePerMinute`,
/// oldest due first, a few in flight at once. One event per change of a domain's state.
public final class CDNWatcher: Sendable {
    struct Books {
        var domains: [String: DomainWatch] = [:]
        /// The prepared Apple file each site served at the last update, to see changes
        /// without parsing unchanged files again.
        var files: [String: PreparedFile] = [:]
        /// Checks by the state they found.
        var checks: [String: Int] = [:]
        /// The earliest time (seconds, fractional) the next fetch may start.
        var nextSlot: Double = 0
        var stopping = false
    }

    public let settings: CDNWatchSettings
    let client: HTTPSClient
    let logger: Logger
    private let books = Mutex(Books())
    private let signal = NSCondition()
    static let userAgent = "aasa-server/\(Version.current) (cdn-watch)"

    public init(settings: CDNWatchSettings, fetchTimeout: Double, logger: Logger) {
        self.settings = settings
        client = HTTPSClient(caFile: settings.caFile, timeout: fetchTimeout, systemTrust: true)
        self.logger = logger
    }

    /// Takes the domains of a published snapshot: new ones are due now, gone ones go, and a
    /// domain whose file changed keeps the old meaning in its history and is due now.
    func update(_ snapshot: ServingSnapshot, now: Int = Int(time(nil))) {
        var served: [String: (site: String, file: PreparedFile)] = [:]
        for (name, record) in snapshot.catalog.records where !name.hasPrefix("*.") {
            if let file = record.content?.apple { served[name] = (name, file) }
        }
        for (alias, target) in snapshot.catalog.aliases {
            if let file = snapshot.catalog.records[target]?.content?.apple { served[alias] = (target, file) }
        }
        let previous = books.withLock { $0.files }
        var fingerprints: [String: MeaningFingerprint?] = [:]
        for (_, entry) in served where fingerprints[entry.site] == nil {
            guard previous[entry.site] !== entry.file else { continue }
            fingerprints[entry.site] = MeaningFingerprint(json: Array(entry.file.body))
        }
        books.withLock { books in
            for name in books.domains.keys where served[name] == nil { books.domains[name] = nil }
            for (name, entry) in served {
                let changed = fingerprints[entry.site]
                if var watch = books.domains[name] {
                    watch.site = entry.site
                    if let changed {
                        watch.serve(changed, now: now)
                        watch.dueAt = min(watch.dueAt, now)
                    }
                    books.domains[name] = watch
                } else {
                    let fingerprint = changed ?? books.domains.values.first { $0.site == entry.site }?.current
                    books.domains[name] = DomainWatch(site: entry.site, current: fingerprint ?? nil, dueAt: now)
                }
            }
            books.files = served.reduce(into: [:]) { $0[$1.value.site] = $1.value.file }
        }
        signal.broadcast()
    }

    public func start() {
        for index in 0..<CDNWatchSettings.concurrentFetches {
            let thread = Thread { [self] in
                while let domain = nextDomain() { check(domain) }
            }
            thread.name = "aasa-cdn-\(index)"
            thread.start()
        }
    }

    public func stop() {
        books.withLock { $0.stopping = true }
        signal.broadcast()
    }

    /// Waits for the next fetch slot and the oldest due domain, and claims it.
    private func nextDomain() -> String? {
        signal.lock()
        defer { signal.unlock() }
        let spacing = 60 / Double(settings.ratePerMinute)
        while true {
            let now = Date().timeIntervalSince1970
            let (choice, wait) = books.withLock { books -> (String?, Double?) in
                if books.stopping { return (nil, nil) }
                var best: (name: String, watch: DomainWatch)?
                for (name, watch) in books.domains where !watch.inFlight {
                    if let current = best, (current.watch.dueAt, current.name) <= (watch.dueAt, name) { continue }
                    best = (name, watch)
                }
                guard let best else { return (nil, 60) }
                let start = max(Double(best.watch.dueAt), books.nextSlot)
                guard start <= now else { return (nil, start - now) }
                books.domains[best.name]?.inFlight = true
                books.nextSlot = max(books.nextSlot, now) + spacing
                return (best.name, nil)
            }
            if let choice { return choice }
            guard let wait else { return nil }
            signal.wait(until: Date().addingTimeInterval(min(max(wait, 0.01), 60)))
        }
    }

    private func check(_ domain: String) {
        let answer = fetch(domain)
        let now = Int(time(nil))
        let change = books.withLock { books -> (before: CDNState, after: DomainWatch)? in
            guard var watch = books.domains[domain] else { return nil }
            let before = watch.apply(answer, now: now)
            books.checks[watch.state.rawValue, default: 0] += 1
            watch.inFlight = false
            watch.schedule(interval: settings.interval, now: now, jitter: Double.random(in: -0.1...0.1))
            books.domains[domain] = watch
            return (before, watch)
        }
        signal.broadcast()
        guard let change, change.before != change.after.state else { return }
        var metadata: Logger.Metadata = [
            "domain": "\(domain)", "from": "\(change.before.rawValue)", "to": "\(change.after.state.rawValue)",
        ]
        if let reason = change.after.reason { metadata["reason"] = "\(reason)" }
        if let since = change.after.outOfSyncSince { metadata["out_of_sync_since"] = "\(HTTPDate.iso8601(since))" }
        switch change.after.state {
        case .inSync: logger.info("cdn: Apple's CDN has the current file", metadata: metadata)
        case .stale: logger.warning("cdn: Apple's CDN has an earlier version", metadata: metadata)
        case .differs: logger.warning("cdn: Apple's CDN has a file this server never served", metadata: metadata)
        case .failing: logger.warning("cdn: Apple's CDN cannot fetch the file from here", metadata: metadata)
        case .error, .unchecked: logger.warning("cdn: Apple's CDN could not be asked", metadata: metadata)
        }
    }

    /// One GET of the domain's CDN copy: gzip accepted, verified TLS, the body read up to
    /// `HTTPClientResponse.bodyLimit` before and after gunzip (past it: an error, closed).
    func fetch(_ domain: String) -> CDNAnswer {
        guard let url = HTTPSURL(settings.url + domain) else { return .error("not an https URL: \(settings.url)") }
        let request = HTTPSClient.Request(
            path: url.path,
            headers: [("User-Agent", Self.userAgent), ("Accept", "application/json"), ("Accept-Encoding", "gzip")])
        return CDNAnswer(
            client.send(request, host: url.host, port: url.port, requireVerified: true).map { $0.1 })
    }

    /// The site folders with a domain whose CDN copy is not in sync (the status page's filter).
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
        states: [CDNState: Int], checks: [String: Int], outOfSync: [(domain: String, seconds: Int)]
    ) {
        books.withLock { books in
            var states = Dictionary(uniqueKeysWithValues: CDNState.allCases.map { ($0, 0) })
            var outOfSync: [(domain: String, seconds: Int)] = []
            for (name, watch) in books.domains {
                states[watch.state, default: 0] += 1
                if watch.state.isOutOfSync, let since = watch.outOfSyncSince {
                    outOfSync.append((name, max(0, now - since)))
                }
            }
            outOfSync.sort { ($1.seconds, $0.domain) < ($0.seconds, $1.domain) }
            return (states, books.checks, Array(outOfSync.prefix(limit)))
        }
    }
}
