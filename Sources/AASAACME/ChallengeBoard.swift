import AASASystem
import AASATransport
import Foundation
@preconcurrency import Glibc
import Synchronization

/// The challenges being validated now, read by the listeners: HTTP-01 key authorizations
/// by token (RFC 8555 §8.3) and TLS-ALPN-01 validation certificates by name (RFC 8737 §3).
/// What this replica's issuer posted is answered at once. With a `ChallengeSource` (the
/// store replicas share), a check this replica did not post is looked up there by the
/// board's own thread, never the loop's: the loop parks the request or pauses the handshake
/// (`Answer.pending`) and is woken when the answer is in. Lookups are bounded: well-formed
/// tokens only, a share per client source (`SourceShares`: `perSource` each, `mostSources`
/// sources, taken in turns), answers cached for a short while (found ones while the CA may
/// still check, absent ones `absentSeconds`), so a stranger cannot make the server query the
/// store at will, nor keep the CA's own check from being looked up (docs/security.md, "Work a
/// stranger can queue"). A challenge another replica posts is mostly known before the CA
/// checks it: the store's change notice (`noticed`) has the board read it ahead, so the check
/// is answered at once. Reads take a lock, but only requests for
/// `/.well-known/acme-challenge/` and handshakes offering `acme-tls/1` ever read it.
public final class ChallengeBoard: Sendable {
    public enum Answer<Value> {
        case found(Value)
        case absent
        /// Being looked up: ask again after the next wake-up.
        case pending
    }

    struct HTTPAnswer {
        let name: String
        let keyAuthorization: [UInt8]
    }

    /// What was looked up, kept until `until` (monotonic seconds).
    enum Cached {
        case http(HTTPAnswer)
        case tls(name: String, context: TLSContext)
        case absent
    }

    struct Lookups {
        var cache: [ChallengeKey: (entry: Cached, until: Double)] = [:]
        /// Checks by client source, queued or being looked up.
        var queue = SourceShares<ChallengeKey>(perSource: perSource, mostSources: mostSources)
        /// Challenges another replica posted or removed, read ahead of any check, first.
        var notices: [ChallengeKey] = []
        var noticed: Set<ChallengeKey> = []
        /// Posted by this replica and not yet seen removed: their notices need no read.
        var own: Set<ChallengeKey> = []
        var stopping = false
        var counts = LookupCounts()
    }

    /// Lookups by result, for `/metrics` (`aasa_acme_challenge_lookups_total{result}`).
    public struct LookupCounts: Sendable, Equatable {
        public var found = 0
        public var absent = 0
        public var failed = 0
        /// Refused without a query: the client's source had its share, or too many sources had.
        public var refused = 0
        /// Read ahead on another replica's change notice (found or not), before any check.
        public var prefetched = 0
        /// Change notices not read ahead because `mostNotices` were waiting: those challenges
        /// are looked up when checked, within the shares.
        public var noticesDropped = 0
        /// Queries for the pre-flight's tokens (`Preflight`), found or not: counted apart, so
        /// the others stay the CA's challenges.
        public var preflight = 0
        public var cached = 0
        public init() {}
    }

    /// Lookups queued or running at once per client source, and sources with any: past them
    /// a check is answered absent at once. A CA checks each token a few times, from a few
    /// places, so its own checks never need more than a few places of one source.
    public static let perSource = 4
    public static let mostSources = 64
    /// Change notices waiting to be read ahead at most; past it one is only forgotten.
    static let mostNotices = 1024
    /// How often a polled source's changes are read (a folder store's inotify): a CA checks
    /// a few hundred milliseconds after being asked at the soonest, and one that comes first
    /// is looked up.
    static let pollSeconds = 0.1
    /// How long a found answer is kept: a CA checks within seconds of being asked to.
    static let foundSeconds = 60.0
    /// How long an absent answer is kept: a stranger's token costs one query per this. A
    /// TLS-ALPN-01 name is not secret like a token, so its absence is kept only briefly: a
    /// stranger's handshake must not hide a challenge another replica posts just after.
    static let absentSeconds = 10.0
    static let absentNameSeconds = 1.0
    /// Cached answers at most; past it the expired go, then the oldest half.
    static let cacheLimit = 10_000

    private let http = Mutex<[String: HTTPAnswer]>([:])
    private let tls = Mutex<[String: TLSContext]>([:])
    private let lookups = Mutex(Lookups())
    private let signal = WorkerSignal()
    private let threads = ThreadSet()
    private let wake = Mutex<(@Sendable (WaitReason?) -> Void)?>(nil)
    /// Where other replicas' challenges are found; nil for a server that shares none.
    let source: (any ChallengeSource)?

    public init(source: (any ChallengeSource)? = nil) {
        self.source = source
    }

    /// The key authorization for `token`, only when it was asked for `host` (the name being
    /// validated); looked up in the source only when `lookUp` (a host a site serves), within
    /// the share of the client's `source` (`ClientSource.key`).
    public func keyAuthorization(
        token: String, host: String, lookUp: Bool = true, source client: UInt64 = 0
    ) -> Answer<[UInt8]> {
        if let answer = http.withLock({ $0[token] }) {
            return answer.name == host ? .found(answer.keyAuthorization) : .absent
        }
        guard lookUp, source != nil, ChallengeKey.isWellFormed(token: token.utf8) else { return .absent }
        switch look(.http(token: token), client: client) {
        case .found(.http(let answer)) where answer.name == host: return .found(answer.keyAuthorization)
        case .pending: return .pending
        default: return .absent
        }
    }

    /// The validation certificate for `name`, while its TLS-ALPN-01 challenge is pending;
    /// looked up in the source only when `lookUp` (a name a site serves), within the share of
    /// the client's `source`.
    public func validationContext(
        for name: String, lookUp: Bool = true, source client: UInt64 = 0
    ) -> Answer<TLSContext> {
        if let context = tls.withLock({ $0[name] }) { return .found(context) }
        guard lookUp, source != nil else { return .absent }
        switch look(.tls(name: name), client: client) {
        case .found(.tls(_, let context)): return .found(context)
        case .pending: return .pending
        default: return .absent
        }
    }

    /// What the lookups did so far.
    public var lookupCounts: LookupCounts { lookups.withLock { $0.counts } }

    /// Starts the lookup thread; `wake` wakes the loops when an answer is in, with what it
    /// answers (nil: everything waiting).
    package func start(wake: @escaping @Sendable (WaitReason?) -> Void) {
        self.wake.withLock { $0 = wake }
        guard source != nil else { return }
        do {
            try threads.start("aasa-acme-look") { [self] in lookUp() }
        } catch {
            lookups.withLock { $0.stopping = true }
        }
    }

    /// Joins the lookup thread (after `stop`).
    public func waitUntilStopped() {
        threads.join()
    }

    public func stop() {
        lookups.withLock { $0.stopping = true }
        signal.wake()
        // Requests parked on a lookup are answered (absent) at once, not at their deadline.
        wake.withLock { $0 }?(nil)
    }

    /// A challenge another replica posted or removed (the store's change notice): what was
    /// cached for it goes, and the lookup thread reads it ahead of any check (notices first),
    /// so the CA's check finds it answered here without a lookup of its own.
    /// Not read: this replica's own challenges (it answers them from memory; the notice of
    /// its own removal ends them), and one the notice says was `removed` (a folder store's
    /// inotify tells; PostgreSQL's notice does not).
    public func noticed(_ key: ChallengeKey, removed: Bool = false) {
        let held: Bool
        switch key {
        case .http(let token): held = http.withLock { $0[token] != nil }
        case .tls(let name): held = tls.withLock { $0[name] != nil }
        }
        let now = Double(MonotonicClock.now()) / 1e9
        let queued = lookups.withLock { books -> Bool in
            books.cache[key] = nil
            if books.own.contains(key) {
                if !held { books.own.remove(key) }
                return false
            }
            if removed {
                books.cache[key] = Self.kept(key, .absent, notice: true, now: now, counts: &books.counts)
                return false
            }
            guard source != nil, !books.stopping, !books.noticed.contains(key) else { return false }
            guard books.notices.count < Self.mostNotices else {
                books.counts.noticesDropped += 1
                return false
            }
            books.notices.append(key)
            books.noticed.insert(key)
            return true
        }
        if queued { signal.wake() }
    }

    // MARK: Posting (the issuer)

    /// Posts an HTTP-01 answer here and, first, where the other replicas find it: the CA is
    /// asked to validate only after this returns.
    func postHTTP(token: String, name: String, keyAuthorization: String) throws {
        try share(.http(token: token), name: name, keyAuthorization: keyAuthorization)
        http.withLock { $0[token] = HTTPAnswer(name: name, keyAuthorization: Array(keyAuthorization.utf8)) }
    }

    func removeHTTP(token: String) {
        http.withLock { _ = $0.removeValue(forKey: token) }
        source?.remove(.http(token: token))
    }

    func postTLS(name: String, keyAuthorization: String, context: TLSContext) throws {
        try share(.tls(name: name), name: name, keyAuthorization: keyAuthorization)
        tls.withLock { $0[name] = context }
    }

    func removeTLS(name: String) {
        tls.withLock { _ = $0.removeValue(forKey: name) }
        source?.remove(.tls(name: name))
    }

    /// Posts to the source, tried three times: another replica removing its own challenge
    /// may remove a folder this write needs for a moment (a folder store); an order that
    /// fails here costs a failed validation at the CA.
    private func share(_ key: ChallengeKey, name: String, keyAuthorization: String) throws {
        guard let source else { return }
        // Before the write: its notice may come before this replica holds the answer.
        lookups.withLock { books in
            // Notices of removals lost (a store cut off meanwhile) leave keys behind: bounded.
            if books.own.count >= Self.mostNotices { books.own.removeAll() }
            books.own.insert(key)
        }
        for attempt in 1...3 {
            do {
                return try source.post(key, name: name, keyAuthorization: keyAuthorization)
            } catch  where attempt < 3 {
                Posix.pause(microseconds: 20_000)
            }
        }
    }

    // MARK: Lookups

    /// A cached answer, or `pending` after queueing a lookup (absent past the client's share).
    private func look(_ key: ChallengeKey, client: UInt64) -> Answer<Cached> {
        let now = Double(MonotonicClock.now()) / 1e9
        let queued = lookups.withLock { books -> Answer<Cached>? in
            if let cached = books.cache[key], cached.until > now {
                books.counts.cached += 1
                if case .absent = cached.entry { return .absent }
                return .found(cached.entry)
            }
            // Stopped: nothing more is looked up, and what was in flight is never answered.
            if books.stopping { return .absent }
            if books.noticed.contains(key) { return .pending }
            switch books.queue.add(key, source: client) {
            case .present: return .pending
            case .refused:
                books.counts.refused += 1
                return .absent
            case .added: return nil
            }
        }
        if let queued { return queued }
        signal.wake()
        return .pending
    }

    /// The lookup thread: one query at a time, each answer cached, then the loops woken. A
    /// source whose changes are polled (a folder store's inotify) is read every turn.
    private func lookUp() {
        guard let source else { return }
        let polling = source.polled
        while true {
            if polling {
                let (changed, overflowed) = source.changes()
                for (key, removed) in changed { noticed(key, removed: removed) }
                // Events dropped: what is cached may be stale, so checks ask the store again.
                if overflowed { lookups.withLock { $0.cache.removeAll() } }
            }
            guard let job = nextJob(polling: polling) else { break }
            guard case .read(let key, let notice) = job else { continue }
            let entry: Cached?
            do {
                entry = try source.find(key).flatMap { Self.cached(key, $0) } ?? .absent
            } catch {
                entry = nil
            }
            let now = Double(MonotonicClock.now()) / 1e9
            lookups.withLock { books in
                if notice {
                    books.noticed.remove(key)
                    books.counts.prefetched += 1
                } else {
                    books.queue.finish(key)
                }
                books.cache[key] = Self.kept(key, entry, notice: notice, now: now, counts: &books.counts)
                if books.cache.count > Self.cacheLimit { Self.trim(&books.cache, now: now) }
            }
            wake.withLock { $0 }?(key.waitReason)
        }
    }

    /// What the source's answer for `key` is kept as: a TLS-ALPN-01 one made into its
    /// validation certificate here (no key goes through the store).
    private static func cached(_ key: ChallengeKey, _ found: (name: String, keyAuthorization: String)) -> Cached? {
        switch key {
        case .http:
            return .http(HTTPAnswer(name: found.name, keyAuthorization: Array(found.keyAuthorization.utf8)))
        case .tls(let name):
            guard found.name == name,
                let context = try? TLSContext.acmeValidation(name: name, keyAuthorization: found.keyAuthorization)
            else { return nil }
            return .tls(name: name, context: context)
        }
    }

    /// The answer `entry` (nil: the store failed) with how long it is kept, counted.
    private static func kept(
        _ key: ChallengeKey, _ entry: Cached?, notice: Bool, now: Double, counts: inout LookupCounts
    ) -> (entry: Cached, until: Double) {
        switch entry {
        case nil:
            // The store failed: answered absent now, asked again at the next check.
            if !notice { counts.failed += 1 }
            return (.absent, now + 1)
        case let answer? where key.isPreflight:
            if !notice { counts.preflight += 1 }
            return (answer, now + absentSeconds)
        case .absent?:
            if !notice { counts.absent += 1 }
            if case .tls = key { return (.absent, now + absentNameSeconds) }
            return (.absent, now + absentSeconds)
        case let found?:
            if !notice { counts.found += 1 }
            // A name's validation certificate changes with each order (another account after
            // a failure, another key authorization), and a folder store on a volume shared
            // between hosts may announce no change: kept only briefly, unless a change notice
            // brought it (the next one replaces it).
            if case .tls = key { return (found, now + (notice ? absentSeconds : absentNameSeconds)) }
            return (found, now + foundSeconds)
        }
    }

    private enum Job {
        case read(ChallengeKey, notice: Bool)
        /// Time to read a polled source's changes.
        case poll
    }

    /// The next challenge to read: a change notice first, else the next source's check; or,
    /// for a polled source, a poll every `pollSeconds`.
    private func nextJob(polling: Bool) -> Job? {
        let due = MonotonicClock.now() + UInt64(Self.pollSeconds * 1e9)
        return signal.next { () -> WorkerSignal.Step<Job> in
            lookups.withLock { books in
                if books.stopping { return .stop }
                if !books.notices.isEmpty { return .take(.read(books.notices.removeFirst(), notice: true)) }
                if let key = books.queue.take() { return .take(.read(key, notice: false)) }
                guard polling else { return .wait(3600) }
                let now = MonotonicClock.now()
                return now >= due ? .take(.poll) : .wait(Double(due - now) / 1e9)
            }
        }
    }

    private static func trim(_ cache: inout [ChallengeKey: (entry: Cached, until: Double)], now: Double) {
        cache = cache.filter { $0.value.until > now }
        if cache.count > cacheLimit / 2 {
            let keep = cache.sorted { $0.value.until > $1.value.until }.prefix(cacheLimit / 2)
            cache = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
        }
    }
}
