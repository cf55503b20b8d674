import AssociationKit
import Foundation
@preconcurrency import Glibc

/// What a handshake for a new name may cost (docs/acme.md, "On-demand budget"): an hourly
/// rate for all names, a weekly budget per registered domain kept across restarts, and a
/// name dropped after repeated failures until a handshake asks again after a cool-down.
extension ACMEManager {
    /// Why a handshake's name was not ordered, as `aasa_acme_on_demand_refused_total` labels it.
    public enum Refusal: String, CaseIterable, Sendable {
        /// `--acme-on-demand-rate` names this hour, all domains together.
        case rate
        /// `--acme-on-demand-weekly` names of its registered domain in seven days.
        case budget
        /// Its orders failed; the cool-down has not passed.
        case dropped
        /// No `--acme-on-demand-names` pattern matches it.
        case names
        /// `--acme-on-demand-ask` said no, or did not answer, within the last minute.
        case ask
    }

    /// On-demand names refused kept for the status page.
    static let recentRefusals = 10

    /// A handshake for `name` found no certificate; `name` is one a wildcard site serves.
    /// True when a certificate is on its way (the handshake waits for it); false when the
    /// name is not allowed, failed recently or a limit is spent, or the ask URL has not
    /// answered for it yet (the handshake goes on without it now). Runs on an event loop: no
    /// I/O here; the ask runs on its own thread, the budget file is written by the worker that
    /// takes the order.
    /// `source` is the client's address (`ClientSource.key`): the ask shares its turns by it.
    public func certificateWanted(for name: String, source: UInt64 = 0, now: Int = Int(time(nil))) -> Bool {
        guard settings.onDemand, CertificatePlan.isOrderable(name) else { return false }
        guard settings.onDemandNames.isEmpty || settings.onDemandNames.contains(where: { $0.matches(name) }) else {
            books.withLock { Self.refuse(&$0, name, .names) }
            return false
        }
        if let asker, !books.withLock({ $0.jobs[name].map { $0.state != .dropped } ?? false }) {
            switch asker.verdict(for: name, now: now) {
            case .allowed: break
            case .refused:
                books.withLock { Self.refuse(&$0, name, .ask) }
                return false
            case .unknown:
                asker.ask(name, source: source)
                return false
            }
        }
        return admit(name, now: now)
    }

    /// Takes `name` as an on-demand order unless a limit is spent or it was dropped; true when
    /// its certificate is on its way.
    func admit(_ name: String, now: Int) -> Bool {
        let accepted = books.withLock { books -> Bool in
            if let job = books.jobs[name], job.state != .dropped {
                return job.state == .ordering || job.state == .issued || (job.state == .scheduled && job.dueAt <= now)
            }
            if let job = books.jobs[name], job.dueAt > now {
                Self.refuse(&books, name, .dropped)
                return false
            }
            if let refusal = Self.spend(&books, name, settings, publicSuffixes, now: now) {
                Self.refuse(&books, name, refusal)
                return false
            }
            var job = Job(
                plan: CertificatePlan(names: [name], onDemand: true), state: .scheduled, dueAt: now, renewal: false)
            job.drops = books.jobs[name]?.drops ?? 0
            books.jobs[name] = job
            books.lookAgain = true
            return true
        }
        if accepted { wake.wake() }
        return accepted
    }

    static func refuse(_ books: inout Books, _ name: String, _ refusal: Refusal) {
        books.results["on_demand_\(refusal.rawValue)", default: 0] += 1
        books.refused.removeAll { $0.name == name }
        if books.refused.count >= recentRefusals { books.refused.removeFirst() }
        books.refused.append((name, refusal))
    }

    /// The ask URL's answer for `name` (on the ask's thread): counted, and a name it allows is
    /// ordered now, so a later handshake finds its certificate on the way or there.
    func answered(_ name: String, _ answer: OnDemandAsk.Answer) {
        let result: String
        switch answer {
        case .allowed: result = "allowed"
        case .refused: result = "refused"
        case .failed: result = "failed"
        }
        books.withLock { books in
            books.results["ask_\(result)", default: 0] += 1
            if answer != .allowed { Self.refuse(&books, name, .ask) }
        }
        guard answer == .allowed else { return }
        let ordered = admit(name, now: Int(time(nil)))
        logger.info(
            "acme: on-demand name allowed by the ask URL",
            metadata: ["name": "\(name)", "ordered": ordered ? "yes" : "no (a limit is spent)"])
    }

    /// The last on-demand names refused and why, newest first (the status page).
    public func recentlyRefused() -> [(name: String, reason: String)] {
        books.withLock { $0.refused.reversed().map { ($0.name, $0.refusal.rawValue) } }
    }

    /// Takes one new name from the hourly rate and the weekly budget, or says which is spent.
    static func spend(
        _ books: inout Books, _ name: String, _ settings: ACMESettings, _ suffixes: PublicSuffixList, now: Int
    ) -> Refusal? {
        books.onDemandStarts.removeAll { $0 <= now - 3600 }
        guard books.onDemandStarts.count < settings.onDemandPerHour else { return .rate }
        let before = books.budget
        guard books.budget.admit(name, limit: settings.onDemandWeekly, now: now, suffixes: suffixes) else {
            return .budget
        }
        if books.budget != before { books.budgetChanged = true }
        books.onDemandStarts.append(now)
        return nil
    }

    /// Books a failed order: the next attempt goes to the next issuer, at once while this
    /// round has issuers left (Caddy's behaviour: one CA's outage is no outage), else back to
    /// the first after a backoff; an on-demand name that failed
    /// `ACMESettings.onDemandFailures` rounds is dropped for a cool-down (an hour, doubling
    /// with each drop to a day). The delay in seconds, and whether it was dropped.
    func failed(_ primary: String, _ error: ACMEProblem, renewal: Bool, now: Int) -> (Int, dropped: Bool) {
        books.withLock { books -> (Int, dropped: Bool) in
            guard var job = books.jobs[primary] else {
                books.results[renewal ? "renewal_failed|" : "order_failed|", default: 0] += 1
                return (0, false)
            }
            let count = issuers.count
            let label = issuers[job.issuerIndex % count].label
            books.results[(renewal ? "renewal_failed|" : "order_failed|") + label, default: 0] += 1
            job.failures += 1
            job.lastError = "\(label): \(error.description)"
            job.issuerIndex = (job.issuerIndex + 1) % count
            let rounds = (job.failures + count - 1) / count
            let remaining = job.renewal ? job.held.map { $0.notAfter - now } : nil
            var delay =
                job.issuerIndex != 0
                ? 0
                : Self.backoff(
                    failures: rounds, retryAfter: error.retryAfter, remaining: remaining, sameIssuer: count == 1)
            let drop =
                job.plan.onDemand && !job.renewal && job.issuerIndex == 0
                && rounds >= ACMESettings.onDemandFailures
            if drop {
                job.drops += 1
                let coolDown = min(ACMESettings.onDemandCoolDown << min(job.drops - 1, 8), Self.longestBackoff)
                delay = max(delay, coolDown)
                job.state = .dropped
            } else {
                job.state = .scheduled
            }
            job.dueAt = Self.later(now, delay)
            books.jobs[primary] = job
            // The next issuer at once: a worker looks for it before the next second.
            if delay == 0 { books.lookAgain = true }
            return (delay, drop)
        }
    }

    var budgetPath: String { (storage.folder as NSString).appendingPathComponent("on-demand-names") }

    /// Reads the budget kept by earlier runs (none at the first start).
    func loadBudget(now: Int = Int(time(nil))) {
        guard let data = FileManager.default.contents(atPath: budgetPath) else { return }
        let budget = OnDemandBudget(text: String(decoding: data, as: UTF8.self), now: now, suffixes: publicSuffixes)
        books.withLock { $0.budget = budget }
    }

    /// Writes the budget when it changed; before the order it allows goes to the CA, so a
    /// crash right after cannot give the name back. A failed write is logged: the order goes
    /// on (the budget in memory still holds).
    func saveBudget() {
        budgetFile.withLock { _ in
            let text = books.withLock { books -> String? in
                guard books.budgetChanged else { return nil }
                books.budgetChanged = false
                return books.budget.text
            }
            guard let text else { return }
            do {
                try storage.makeFolder()
                try ACMEStorage.writeAtomically(Array(text.utf8), to: budgetPath, mode: 0o600)
            } catch {
                logger.error("acme: cannot write the on-demand budget", metadata: ["detail": "\(error)"])
            }
        }
    }

    /// The names counted in the budget of `domain` now (for tests and the status page).
    public func budgetSpent(_ domain: String, now: Int = Int(time(nil))) -> Int {
        books.withLock { $0.budget.spent(domain, now: now) }
    }
}

extension ACMEManager.Job {
    /// The order workers take due jobs in: renewals, then on-demand names, then the rest.
    var rank: Int { renewal ? 0 : plan.onDemand ? 1 : 2 }
}
