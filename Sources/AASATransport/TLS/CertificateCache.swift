import AASASystem
import AssociationKit
import COpenSSL
import Synchronization

/// The certificates made ready for handshakes (`LoadedCertificate`: the parsed chain and key), loaded when a
/// name is first asked for and kept while they fit in a budget of approximate bytes, the least
/// recently used going first (docs/certificates.md, "Many certificates"). One cache lives as long as
/// the server: every certificate store a reload builds shares it, and an entry is keyed by its
/// chain file and that file's identity, so a changed certificate is loaded again and nothing
/// else is.
///
/// A handshake asks on its loop (`loaded(for:)`): a loaded entry answers at once; otherwise
/// the certificate is queued for the loader thread (`runLoader`, a component of the server)
/// and the handshake pauses (SSL_CLIENT_HELLO_RETRY), to go on when the loader wakes the loops.
/// Without a loader running (tests in one process, commands other than `serve`), the caller
/// loads it at once. The loader's queue is bounded and shared out by client (`SourceShares`:
/// at most `perSource` certificates queued or loading for one source, taken in turns, at most
/// `mostQueued` in all): a stranger naming every customer's name in turn queues a few loads,
/// and a handshake past the bounds fails at once, counted (`refused`), rather than waiting
/// behind the stranger's (docs/security.md, "Work a stranger can queue"). A certificate queued
/// already is not queued again: its handshakes share the one load.
public final class CertificateCache: Sendable {
    /// What a handshake learns about one certificate.
    package enum Answer {
        case ready(LoadedCertificate)
        /// On its way: the loops are woken when it is loaded (or fails).
        case loading
        /// It cannot be used (the key does not match, cannot be read): no certificate.
        case failed
        /// Not queued: the client has its share of the loader's queue, or the queue is full.
        case refused
    }

    /// What the status page and `/metrics` show.
    public struct Counts: Sendable {
        public var loaded = 0
        public var bytes = 0
        public var budget = 0
        public var loads = 0
        public var evictions = 0
        public var pending = 0
        /// Handshakes whose certificate was not queued: the client's share or the queue was full.
        public var refused = 0
        /// Certificates that failed to load (by folder), with why; reported when found.
        public var failures: [CertificateProblem] = []
        /// Loads tried again after a failure of the system's state (`Retry`).
        public var retries = 0
    }

    /// A pair whose load failed for a passing reason (descriptors or memory short, an I/O
    /// error: `OpenSSLError.passing`) is tried again at a handshake once `due`, the wait
    /// doubling from `firstRetry` to `lastRetry` with each failure in a row, so a healthy
    /// certificate is served once the system recovers, without its files changing, and a
    /// lasting shortage costs a load per pair a minute at most. Any other failure (a bad PEM,
    /// a key that does not match, a FIFO) lasts until the files change.
    private struct Retry {
        var failures: Int
        var due: UInt64
    }

    /// Nanoseconds.
    package static let firstRetry: UInt64 = 1_000_000_000
    package static let lastRetry: UInt64 = 60_000_000_000

    /// The wait after `failures` passing failures in a row (1 s, 2 s, 4 s … 60 s).
    package static func retryDelay(failures: Int) -> UInt64 {
        min(firstRetry << UInt64(min(max(failures - 1, 0), 6)), lastRetry)
    }

    /// A load that failed, and whether the system's state rather than the files failed it.
    package struct Failure: Error {
        var problem: CertificateProblem
        var passing: Bool
    }

    /// What installing a load says to log: a failure (once per episode of passing failures)
    /// or a certificate loaded after `failures` passing ones.
    private enum Notice {
        case none
        case failed(CertificateProblem)
        case recovered(failures: Int)
    }

    private enum Slot {
        case loaded(LoadedCertificate, bytes: Int, lastUse: UInt64)
        case loading
        case failed(CertificateProblem)
    }

    private struct Entry {
        var identity: CertificateStore.Identity
        var slot: Slot
        /// Kept while a passing failure is tried again (through `.loading`), dropped on success.
        var retry: Retry?
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Chain files queued or loading, by client source, and what each is.
        var queue = SourceShares<String>(perSource: perSource, mostSources: mostSources)
        var queued: [String: CertificateStore.Certificate] = [:]
        var refused = 0
        var bytes = 0
        var tick: UInt64 = 0
        var loaderRunning = false
        var stopping = false
        var loads = 0
        var evictions = 0
        var retries = 0
    }

    /// What one loaded certificate costs beside its files: the parsed leaf, chain and key
    /// (P-256), as resident memory grew per certificate loaded under `make bench-certs`
    /// (docs/development.md, "Many certificates").
    package static let entryBytes = 8 * 1024
    /// Certificates queued or loading for one client source. A client asks for one name per
    /// connection, and even Apple's CDN, refreshing many customers' domains from a few
    /// addresses, has far fewer handshakes in progress at once; a load takes a millisecond
    /// or two, so a full share is read within a tenth of a second.
    package static let perSource = 32
    /// Sources with loads queued at most, and loads queued in all: past them a handshake
    /// is refused. All the sources' shares fit in the total, so a flood from fewer than
    /// `mostSources` addresses can never fill it for another source (a smaller total let 32
    /// addresses refuse every other client's loads).
    package static let mostSources = 256
    package static let mostQueued = perSource * mostSources

    public let budget: Int
    private let state = Mutex(State())
    private let signal = WorkerSignal()

    public init(budgetBytes: Int) {
        budget = max(budgetBytes, 0)
    }

    /// The certificate if loaded (marked as just used); else queued for the loader within the
    /// share of the client's `source` (`ClientSource.key`), or, without a loader, loaded here.
    package func loaded(for certificate: CertificateStore.Certificate, source: UInt64 = 0) -> Answer {
        let chain = certificate.files.chain
        var added = false
        var retrying = false
        let queued: Answer? = state.withLock { state in
            state.tick &+= 1
            var retry: Retry?
            if let entry = state.entries[chain], entry.identity == certificate.identity {
                switch entry.slot {
                case .loaded(let loaded, let bytes, _):
                    state.entries[chain]?.slot = .loaded(loaded, bytes: bytes, lastUse: state.tick)
                    return .ready(loaded)
                case .loading: return .loading
                case .failed:
                    // Only a pair failed for a passing reason is tried again, once its wait is
                    // over (the clock is read for it alone). This handshake claims the try:
                    // with the loader the pair is loading; without, others wait for the next
                    // due time rather than load it too.
                    guard var claimed = entry.retry else { return .failed }
                    let now = MonotonicClock.now()
                    guard now >= claimed.due else { return .failed }
                    claimed.due = now + Self.retryDelay(failures: claimed.failures)
                    retry = claimed
                    retrying = true
                }
            }
            guard state.loaderRunning else {
                if retrying {
                    state.entries[chain]?.retry = retry
                    state.retries += 1
                }
                return nil
            }
            // An older identity of the chain still queued is loaded as this one.
            if state.queue.contains(chain) {
                state.queued[chain] = certificate
                state.entries[chain] = Entry(identity: certificate.identity, slot: .loading, retry: retry)
                return .loading
            }
            guard state.queue.count < Self.mostQueued, state.queue.add(chain, source: source) == .added else {
                state.refused += 1
                return .refused
            }
            state.queued[chain] = certificate
            state.entries[chain] = Entry(identity: certificate.identity, slot: .loading, retry: retry)
            if retrying { state.retries += 1 }
            added = true
            return .loading
        }
        // Outside the cache's lock: the loader takes the signal's lock, then the cache's.
        if added { signal.wake() }
        if let queued { return queued }
        if !retrying, let answer = loadedAnswer(certificate) { return answer }
        // No loader: load on the caller's thread.
        return install(certificate, Self.make(certificate)).answer
    }

    private func loadedAnswer(_ certificate: CertificateStore.Certificate) -> Answer? {
        state.withLock { state in
            guard let entry = state.entries[certificate.files.chain], entry.identity == certificate.identity else {
                return nil
            }
            switch entry.slot {
            case .loaded(let loaded, _, _): return .ready(loaded)
            case .failed: return .failed
            case .loading: return .loading
            }
        }
    }

    /// The context of the default certificate, the one handshakes begin on: made at load
    /// time, outside the cache (it stays as long as its store).
    package static func defaultContext(
        _ certificate: CertificateStore.Certificate
    ) -> Result<TLSContext, CertificateProblem> {
        let files = certificate.files
        if let reason = ReadPermission.problem(reading: files.key, what: "the private key") {
            return .failure(CertificateProblem(files.folder, .unusable, .error, reason))
        }
        do {
            let context = try TLSContext(chainFile: files.chain, keyFile: files.key)
            SSL_CTX_set_client_hello_cb(context.context, chooseCertificate, nil)
            return .success(context)
        } catch {
            return .failure(CertificateProblem(files.folder, .unusable, .error, "\(error)"))
        }
    }

    /// Entries of certificates no longer in the folder go (their chain files).
    package func forget(chains: some Sequence<String>) {
        state.withLock { state in
            for chain in chains {
                if case .loaded(_, let bytes, _)? = state.entries.removeValue(forKey: chain)?.slot {
                    state.bytes -= bytes
                }
            }
        }
    }

    public var counts: Counts {
        state.withLock { state in
            var counts = Counts(budget: budget, loads: state.loads, evictions: state.evictions)
            counts.bytes = state.bytes
            counts.retries = state.retries
            counts.pending = state.queue.count
            counts.refused = state.refused
            for entry in state.entries.values {
                switch entry.slot {
                case .loaded: counts.loaded += 1
                case .failed(let problem): counts.failures.append(problem)
                case .loading: break
                }
            }
            counts.failures.sort { $0.path < $1.path }
            return counts
        }
    }

    /// The loader thread's body: loads queued certificates one at a time, calls `wake` after
    /// each with its chain (the loops resume the handshakes paused for it; nil: all of them)
    /// and `report` for one that cannot be used; returns after `stop`.
    /// `recovered` is told of a certificate loaded after passing failures (its folder, how many).
    package func runLoader(
        wake: @Sendable (WaitReason?) -> Void, report: @Sendable (CertificateProblem) -> Void,
        recovered: @Sendable (String, Int) -> Void = { _, _ in }
    ) {
        prepareLoader()
        while true {
            let next: CertificateStore.Certificate? = signal.next {
                () -> WorkerSignal.Step<CertificateStore.Certificate> in
                state.withLock { state in
                    if state.stopping { return .stop }
                    guard let chain = state.queue.take() else { return .wait(3600) }
                    guard let certificate = state.queued.removeValue(forKey: chain) else {
                        state.queue.finish(chain)
                        return .wait(0)
                    }
                    return .take(certificate)
                }
            }
            guard let certificate = next else { break }
            let notice = install(certificate, Self.make(certificate)).notice
            state.withLock { $0.queue.finish(certificate.files.chain) }
            switch notice {
            case .failed(let problem): report(problem)
            case .recovered(let failures): recovered(certificate.folder, failures)
            case .none: break
            }
            wake(.certificate(chain: certificate.files.chain))
        }
        // Handshakes queued behind the stop are loaded by their callers from now on.
        state.withLock { state in
            state.loaderRunning = false
            for chain in state.queue.removeWaiting() {
                guard let certificate = state.queued.removeValue(forKey: chain) else { continue }
                if state.entries[chain]?.identity == certificate.identity { state.entries[chain] = nil }
            }
        }
        wake(nil)
    }

    /// Says the loader thread is coming, before the loops start: a handshake that arrives
    /// before the thread's body runs then queues its certificate instead of loading it on
    /// the loop's own thread.
    public func prepareLoader() {
        state.withLock { $0.loaderRunning = true }
    }

    public func stop() {
        state.withLock { $0.stopping = true }
        signal.wake()
    }

    /// `certificate`'s chain and key read, or why it cannot be used.
    static func make(_ certificate: CertificateStore.Certificate) -> Result<LoadedCertificate, Failure> {
        let files = certificate.files
        if let reason = ReadPermission.problem(reading: files.key, what: "the private key") {
            let problem = CertificateProblem(files.folder, .unusable, .error, reason)
            return .failure(Failure(problem: problem, passing: false))
        }
        do throws(OpenSSLError) {
            return .success(
                try LoadedCertificate(chainFile: files.chain, keyFile: files.key, fileBytes: certificate.fileBytes))
        } catch {
            let message =
                error.passing
                ? "\(error); the system's state, not the files: tried again at a later handshake, after 1 s and "
                    + "then at most every 60 s" : "\(error)"
            return .failure(
                Failure(problem: CertificateProblem(files.folder, .unusable, .error, message), passing: error.passing))
        }
    }

    /// Records what loading found and keeps the cache within its budget; says what to log.
    private func install(
        _ certificate: CertificateStore.Certificate, _ made: Result<LoadedCertificate, Failure>
    ) -> (answer: Answer, notice: Notice) {
        let chain = certificate.files.chain
        return state.withLock { state in
            state.tick &+= 1
            let previous = state.entries[chain]
            if case .loaded(_, let bytes, _)? = previous?.slot { state.bytes -= bytes }
            // Failures in a row of this identity of the pair (a changed pair starts afresh).
            let earlier = previous?.identity == certificate.identity ? previous?.retry?.failures ?? 0 : 0
            switch made {
            case .success(let loaded):
                let bytes = Self.entryBytes + loaded.fileBytes
                state.entries[chain] = Entry(
                    identity: certificate.identity, slot: .loaded(loaded, bytes: bytes, lastUse: state.tick))
                state.bytes += bytes
                state.loads += 1
                if state.bytes > budget { evict(&state, keeping: chain) }
                return (.ready(loaded), earlier > 0 ? .recovered(failures: earlier) : .none)
            case .failure(let failure):
                var retry: Retry?
                if failure.passing {
                    let failures = earlier + 1
                    retry = Retry(failures: failures, due: MonotonicClock.now() + Self.retryDelay(failures: failures))
                }
                state.entries[chain] = Entry(
                    identity: certificate.identity, slot: .failed(failure.problem), retry: retry)
                // Logged once per episode: the first failure in a row, not each try after it.
                return (.failed, earlier == 0 || !failure.passing ? .failed(failure.problem) : .none)
            }
        }
    }

    /// Drops the least recently used entries until the cache is at 90 % of its budget (one sort
    /// per sweep, not one per insertion); `keeping` is the one just loaded.
    private func evict(_ state: inout State, keeping: String) {
        var used: [(lastUse: UInt64, chain: String, bytes: Int)] = []
        for (chain, entry) in state.entries where chain != keeping {
            if case .loaded(_, let bytes, let lastUse) = entry.slot { used.append((lastUse, chain, bytes)) }
        }
        used.sort { $0.lastUse < $1.lastUse }
        let target = budget / 10 * 9
        for oldest in used {
            guard state.bytes > target else { break }
            state.entries[oldest.chain] = nil
            state.bytes -= oldest.bytes
            state.evictions += 1
        }
    }
}
