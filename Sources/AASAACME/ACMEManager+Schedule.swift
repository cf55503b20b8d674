/// Which job a worker takes next (docs/acme.md, "Issuers in order"): one look over every
/// job finds what is due, sorted as the workers take it, and the takes that follow pop from
/// it until it is empty, a second has passed, or jobs were added (`Books.lookAgain`). With
/// 10,000 plans due at start, a look per take cost 10,000 passes over 10,000 jobs.
extension ACMEManager.Job {
    /// An order is due: new, scheduled, waiting for its DNS, or a held certificate's renewal
    /// moment, and no failure is being booked for it.
    func isOrderDue(now: Int) -> Bool {
        (state == .scheduled || state == .waitingDNS || state == .valid && !checking) && dueAt <= now && !finishing
    }

    /// A renewal-information check is due for the certificate held.
    func isCheckDue(now: Int) -> Bool {
        state == .valid && !checking && (checkAt ?? .max) <= now
    }
}

extension ACMEManager.Books {
    /// Finds every due task: orders by rank (renewals, on-demand names, new sites), then the
    /// oldest due, then by name; checks after every order. `ready` holds them last-first, and
    /// `nextDue` the earliest moment anything else comes due.
    mutating func look(now: Int) {
        var orders: [(rank: Int, dueAt: Int, primary: String)] = []
        var checks: [String] = []
        var next: Int?
        for (primary, job) in jobs {
            if job.isOrderDue(now: now) {
                orders.append((job.rank, job.dueAt, primary))
            } else if job.isCheckDue(now: now) {
                checks.append(primary)
            }
            // As before the look: a job being checked or booked counts, so a worker waits a
            // second, not an hour, for it to come free.
            if job.state == .scheduled || job.state == .valid || job.state == .waitingDNS {
                next = min(next ?? job.dueAt, job.dueAt)
            }
            if !job.checking, let checkAt = job.checkAt { next = min(next ?? checkAt, checkAt) }
        }
        orders.sort { ($0.rank, $0.dueAt, $0.primary) > ($1.rank, $1.dueAt, $1.primary) }
        ready = checks.sorted(by: >).map { .check($0) } + orders.map { .order($0.primary) }
        lookedAt = now
        nextDue = next
        lookAgain = false
    }
}
