import AASAStore
import Foundation
@preconcurrency import Glibc
import Logging

/// What replicas sharing a store agree on before and after an order (docs/acme.md, "Several
/// replicas"): one order per name at a time (the store's lock for the name), no order inside
/// a name's failure backoff (`backoff/NAME`, read after the lock is taken), and none for a
/// name another replica has just issued or renewed (its chain in the store is read too).
extension ACMEManager {
    enum Claim {
        /// The lock is ours: order, starting from what the store's backoff says.
        case order(StoreLock, SharedBackoff?)
        /// Another replica holds the lock, or the store cannot be reached.
        case busy(String)
        /// Inside the backoff another replica's failure set.
        case backingOff(SharedBackoff)
        /// The store already holds a certificate newer than the one held here.
        case issuedElsewhere
    }

    static func backoffKey(_ primary: String) -> StoreKey? { StoreKey("backoff/" + primary) }

    /// Takes the name's lock and reads the store's view of the name; never an order when the
    /// store cannot answer (no order without the lock).
    func claim(_ primary: String, names: [String], holdingUntil notAfter: Int, now: Int) -> Claim {
        let lock: StoreLock
        do {
            guard let taken = try store.tryLock(primary) else { return .busy("another replica holds the lock") }
            lock = taken
        } catch {
            return .busy("\(error)")
        }
        do {
            if let key = Self.backoffKey(primary), let bytes = try store.load(key),
                let backoff = SharedBackoff(bytes: bytes)
            {
                if backoff.until > now {
                    store.unlock(lock)
                    return .backingOff(backoff)
                }
                return try issued(primary, names, after: notAfter, lock) ?? .order(lock, backoff)
            }
            return try issued(primary, names, after: notAfter, lock) ?? .order(lock, nil)
        } catch {
            store.unlock(lock)
            return .busy("\(error)")
        }
    }

    private func issued(_ primary: String, _ names: [String], after notAfter: Int, _ lock: StoreLock) throws(StoreError)
        -> Claim?
    {
        guard let key = StoreKey(primary + "/fullchain.pem"), let pem = try store.load(key),
            let leaf = StoredLeaf(pem: pem), leaf.covers(names, endingAfter: max(notAfter, Int(time(nil))))
        else { return nil }
        store.unlock(lock)
        return .issuedElsewhere
    }

    /// After a failed order, while the lock is still held: the backoff every replica keeps to.
    func shareBackoff(_ primary: String) {
        guard let key = Self.backoffKey(primary),
            let backoff = books.withLock({ books in
                books.jobs[primary].map {
                    SharedBackoff(
                        until: $0.dueAt, failures: $0.failures, issuerIndex: $0.issuerIndex, problem: $0.lastError ?? ""
                    )
                }
            })
        else { return }
        do { try store.store(key, Array(backoff.text.utf8)) } catch {
            logger.warning("acme: cannot share the backoff of \(primary): \(error)")
        }
    }

    /// After a certificate was stored: no backoff left for the name.
    func clearBackoff(_ primary: String) {
        guard let key = Self.backoffKey(primary) else { return }
        try? store.delete(key)
    }

    /// Books what the claim found instead of an order.
    func book(_ claim: Claim, for primary: String, now: Int) {
        switch claim {
        case .order:
            return
        case .busy(let reason):
            logger.info("acme: not ordering \(primary) now: \(reason); waiting for its certificate")
            books.withLock {
                $0.jobs[primary]?.state = .scheduled
                $0.jobs[primary]?.dueAt = now + Self.busyRetry
            }
        case .backingOff(let backoff):
            logger.info(
                "acme: \(primary) failed on another replica; waiting for its backoff",
                metadata: ["retry_in": .stringConvertible(backoff.until - now), "problem": "\(backoff.problem)"])
            books.withLock {
                $0.jobs[primary]?.state = .scheduled
                $0.jobs[primary]?.dueAt = backoff.until
                $0.jobs[primary]?.failures = backoff.failures
                $0.jobs[primary]?.issuerIndex = backoff.issuerIndex % max(issuers.count, 1)
                $0.jobs[primary]?.lastError = backoff.problem
            }
        case .issuedElsewhere:
            logger.info("acme: \(primary) was issued by another replica; loading it")
            books.withLock {
                $0.jobs[primary]?.state = .issued
                $0.jobs[primary]?.dueAt = now + 300
            }
            callbacks.withLock { $0 }?.certificatesChanged()
        }
    }

    /// A name another replica is ordering is looked at again after this long (its
    /// certificate usually arrives first, through the store; a replica that died holding the
    /// lock lost it, and the name is ordered here). A try of the lock is cheap.
    static let busyRetry = 10
}
