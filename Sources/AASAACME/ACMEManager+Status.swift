@preconcurrency import Glibc

/// What the status page and `/sites.json` show of the certificates ACME keeps.
extension ACMEManager {
    /// Every plan's certificate, for the status page.
    public func managed(now: Int = Int(time(nil))) -> [ManagedCertificate] {
        books.withLock { books in
            books.jobs.values.map(describe).sorted { $0.names[0] < $1.names[0] }
        }
    }

    /// The certificate kept for the plan whose first name is `primary` (a site's name), if any:
    /// one dictionary lookup, for `/sites.json`'s page of sites.
    public func managed(primary: String) -> ManagedCertificate? {
        books.withLock { books in books.jobs[primary].map(describe) }
    }

    func describe(_ job: Job) -> ManagedCertificate {
        ManagedCertificate(
            names: job.plan.names, state: job.state, onDemand: job.plan.onDemand, issuer: job.issuer,
            issuedBy: job.issuedBy, nextIssuer: issuers[job.issuerIndex % issuers.count].label,
            renewalWindow: job.window, nextCheck: job.checkAt, notAfter: job.notAfter,
            nextAttempt: job.state == .ordering ? nil : job.dueAt, lastError: job.lastError,
            failures: job.failures, renewalDeferred: job.deferred && job.state == .valid)
    }

    /// The certificates counted by `ManagedCertificate.Condition` (every condition present,
    /// 0 when none), and the first names, sorted, of at most `limit` certificates without a
    /// valid one (`ManagedCertificate.isUnissued`): what `/metrics` shows, in one pass.
    public func summary(
        now: Int = Int(time(nil)), unissuedLimit limit: Int
    ) -> (counts: [ManagedCertificate.Condition: Int], unissued: [String]) {
        var counts = Dictionary(uniqueKeysWithValues: ManagedCertificate.Condition.allCases.map { ($0, 0) })
        var unissued: [String] = []
        books.withLock { books in
            for job in books.jobs.values {
                let certificate = describe(job)
                counts[certificate.condition(now: now), default: 0] += 1
                if certificate.isUnissued(now: now) { unissued.append(job.plan.primary) }
            }
        }
        return (counts, Array(unissued.sorted().prefix(limit)))
    }
}
