import AssociationKit

/// One domain under watch: the meaning of the file served now, the versions served before
/// (newest first, each with when it stopped being served), and what the cache said last.
struct DomainWatch {
    struct Version {
        let fingerprint: MeaningFingerprint
        /// Seconds since the epoch.
        let stoppedAt: Int
    }

    /// The site folder whose file the domain serves (an alias's target).
    var site: String
    var current: MeaningFingerprint?
    var history: [Version] = []
    var state = CacheState.unchecked
    var checkedAt: Int?
    var reason: String?
    var details: String?
    var outOfSyncSince: Int?
    /// The differing copy's meaning, so `outOfSyncSince` stays the first time it was seen.
    var differing: MeaningFingerprint?
    var dueAt: Int
    /// Set when the file changed and the cache has not caught up yet: checked sooner.
    var changedAt: Int?
    var inFlight = false

    init(site: String, current: MeaningFingerprint?, dueAt: Int) {
        self.site = site
        self.current = current
        self.dueAt = dueAt
    }

    /// The file served now changed: the old meaning joins the history.
    mutating func serve(_ fingerprint: MeaningFingerprint?, now: Int) {
        guard fingerprint != current else { return }
        if let current {
            history.removeAll { $0.fingerprint == current || $0.fingerprint == fingerprint }
            history.insert(Version(fingerprint: current, stoppedAt: now), at: 0)
            history = Array(history.prefix(CacheWatcher.historyDepth))
        }
        current = fingerprint
        changedAt = now
    }

    /// Compares an answer with what was served (one comparison for every source, docs/watches.md,
    /// "Apple's CDN") and returns the state before, so a change of state can be logged once.
    @discardableResult
    mutating func apply(_ answer: CacheAnswer, now: Int) -> CacheState {
        let before = state
        checkedAt = now
        (reason, details) = (nil, nil)
        switch answer {
        case .copy(let copy?) where copy == current:
            state = .inSync
            outOfSyncSince = nil
            differing = nil
            changedAt = nil
        case .copy(let copy?) where history.contains { $0.fingerprint == copy }:
            state = .stale
            outOfSyncSince = history.first { $0.fingerprint == copy }?.stoppedAt
            differing = nil
        case .copy(let copy):
            if state != .differs || differing != copy { outOfSyncSince = now }
            state = .differs
            differing = copy
            if copy == nil { reason = "the copy is not JSON" }
        case .failing(let failure, let text):
            state = .failing
            (reason, details) = (failure, text)
            outOfSyncSince = nil
        case .error(let message):
            state = .error
            reason = message
        }
        return before
    }

    /// The next check: the interval with ±10 % jitter, or sooner (at most every 15 minutes)
    /// while a changed file has not reached the cache.
    mutating func schedule(interval: Int, now: Int, jitter: Double) {
        let base = changedAt != nil && state != .inSync ? min(interval, 900) : interval
        dueAt = now + max(1, Int((Double(base) * (1 + jitter)).rounded()))
    }
}
