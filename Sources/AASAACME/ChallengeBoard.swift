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
/// tokens only, `maxInFlight` at a time, answers cached for a short while (found ones while
/// the CA may still check, absent ones `absentSeconds`), so a stranger cannot make the
/// server query the store at will. Reads take a lock, but only requests for
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
        var queue: [ChallengeKey] = []
        var inFlight: Set<ChallengeKey> = []
        var stopping = false
        var counts = LookupCounts()
    }

    /// Lookups by result, for `/metrics` (`aasa_acme_challenge_lookups_total{result}`).
    public struct LookupCounts: Sendable, Equatable {
        public var found = 0
        public var absent = 0
        public var failed = 0
        /// Refused without a query: the in-flight cap was reached.
        public var refused = 0
        /// Queries for the pre-flight's tokens (`Preflight`), found or not: counted apart, so
        /// the others stay the CA's challenges.
        public var preflight = 0
        public var cached = 0
        public init() {}
    }

    /// Lookups queued or running at once; past it a check is answered absent at once.
    public static let maxInFlight = 32
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
    private let wake = Mutex<(@Sendable () -> Void)?>(nil)
    /// Where other replicas' challenges are found; nil for a server that shares none.
    let source: (any ChallengeSource)?

    public init(source: (any ChallengeSource)? = nil) {
        self.source = source
    }

    /// The key authorization for `token`, only when it was asked for `host` (the name being
    /// validated); looked up in the source only when `lookUp` (a host a site serves).
    public func keyAuthorization(token: String, host: String, lookUp: Bool = true) -> Answer<[UInt8]> {
        if let answer = http.withLock({ $0[token] }) {
            return answer.name == host ? .found(answer.keyAuthorization) : .absent
        }
        guard lookUp, source != nil, ChallengeKey.isWellFormed(token: token.utf8) else { return .absent }
        switch look(.http(token: token)) {
        case .found(.http(let answer)) where answer.name == host: return .found(answer.keyAuthorization)
        case .pending: return .pending
        default: return .absent
        }
    }

    /// The validation certificate for `name`, while its TLS-ALPN-01 challenge is pending;
    /// looked up in the source only when `lookUp` (a name a site serves).
    public func validationContext(for name: String, lookUp: Bool = true) -> Answer<TLSContext> {
        if let context = tls.withLock({ $0[name] }) { return .found(context) }
        guard lookUp, source != nil else { return .absent }
        switch look(.tls(name: name)) {
        case .found(.tls(_, let context)): return .found(context)
        case .pending: return .pending
        default: return .absent
        }
    }

    /// What the lookups did so far.
    public var lookupCounts: LookupCounts { lookups.withLock { $0.counts } }

    /// Starts the lookup thread; `wake` wakes the loops when an answer is in. Without one (the
    /// thread limit), other replicas' challenges are answered absent, as after `stop`.
    public func start(wake: @escaping @Sendable () -> Void) {
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
        wake.withLock { $0 }?()
    }

    /// A challenge another replica posted or removed (the store's change notice): what was
    /// cached for it goes, so a check that follows asks the store again.
    public func forget(_ key: ChallengeKey) {
        lookups.withLock { _ = $0.cache.removeValue(forKey: key) }
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
        for attempt in 1...3 {
            do {
                return try source.post(key, name: name, keyAuthorization: keyAuthorization)
            } catch  where attempt < 3 {
                Posix.pause(microseconds: 20_000)
            }
        }
    }

    // MARK: Lookups

    /// A cached answer, or `pending` after queueing a lookup (absent when the cap is reached).
    private func look(_ key: ChallengeKey) -> Answer<Cached> {
        let now = Double(MonotonicClock.now()) / 1e9
        let queued = lookups.withLock { books -> Answer<Cached>? in
            if let cached = books.cache[key], cached.until > now {
                books.counts.cached += 1
                if case .absent = cached.entry { return .absent }
                return .found(cached.entry)
            }
            // Stopped: nothing more is looked up, and what was in flight is never answered.
            if books.stopping { return .absent }
            if books.inFlight.contains(key) { return .pending }
            guard books.inFlight.count < Self.maxInFlight else {
                books.counts.refused += 1
                return .absent
            }
            books.inFlight.insert(key)
            books.queue.append(key)
            return nil
        }
        if let queued { return queued }
        signal.wake()
        return .pending
    }

    /// The lookup thread: one query at a time, each answer cached, then the loops woken.
    private func lookUp() {
        guard let source else { return }
        while let key = nextKey() {
            let entry: Cached?
            do {
                entry =
                    try source.find(key).flatMap { found -> Cached? in
                        switch key {
                        case .http:
                            return .http(
                                HTTPAnswer(name: found.name, keyAuthorization: Array(found.keyAuthorization.utf8)))
                        case .tls(let name):
                            guard found.name == name,
                                let context = try? TLSContext.acmeValidation(
                                    name: name, keyAuthorization: found.keyAuthorization)
                            else { return nil }
                            return .tls(name: name, context: context)
                        }
                    } ?? .absent
            } catch {
                entry = nil
            }
            let now = Double(MonotonicClock.now()) / 1e9
            lookups.withLock { books in
                books.inFlight.remove(key)
                switch entry {
                case nil:
                    // The store failed: answered absent now, asked again at the next check.
                    books.counts.failed += 1
                    books.cache[key] = (.absent, now + 1)
                case let answer? where key.isPreflight:
                    books.counts.preflight += 1
                    books.cache[key] = (answer, now + Self.absentSeconds)
                case .absent?:
                    books.counts.absent += 1
                    if case .tls = key {
                        books.cache[key] = (.absent, now + Self.absentNameSeconds)
                    } else {
                        books.cache[key] = (.absent, now + Self.absentSeconds)
                    }
                case let found?:
                    books.counts.found += 1
                    // A name's validation certificate changes with each order (another account
                    // after a failure, another key authorization), and a folder store announces
                    // no change: kept only as briefly as an absent name.
                    if case .tls = key {
                        books.cache[key] = (found, now + Self.absentNameSeconds)
                    } else {
                        books.cache[key] = (found, now + Self.foundSeconds)
                    }
                }
                if books.cache.count > Self.cacheLimit { Self.trim(&books.cache, now: now) }
            }
            wake.withLock { $0 }?()
        }
    }

    private func nextKey() -> ChallengeKey? {
        signal.next { () -> WorkerSignal.Step<ChallengeKey> in
            lookups.withLock { books in
                if books.stopping { return .stop }
                guard !books.queue.isEmpty else { return .wait(3600) }
                return .take(books.queue.removeFirst())
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
