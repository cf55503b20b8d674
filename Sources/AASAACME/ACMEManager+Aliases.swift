import Foundation
@preconcurrency import Glibc

/// Orders made because aliases changed (docs/acme.md, "Aliases and the budget"): whoever
/// deploys a site folder writes its `site.json`, so its edits must not spend the shared
/// account's certificates without limit. Each order of a plan with aliases that no held
/// certificate covers charges one certificate to each registered domain among its names,
/// at most `onDemandWeekly` a week each (counted apart from on-demand names); past it the
/// plan waits and is looked at again after `ACMESettings.aliasBudgetRetry`.
extension ACMEManager {
    /// Charges the order of `primary` for `names`; false (the job put back, with why) when a
    /// registered domain's budget is spent. Called by the worker that took the job.
    func chargeAliasOrder(_ primary: String, _ names: [String], now: Int = Int(time(nil))) -> Bool {
        let spent = books.withLock { books -> String? in
            let before = books.budget
            if let domain = books.budget.admitCertificate(
                names, limit: settings.onDemandWeekly, now: now, suffixes: publicSuffixes)
            {
                books.results["alias_budget", default: 0] += 1
                books.jobs[primary]?.state = .scheduled
                books.jobs[primary]?.dueAt = now + ACMESettings.aliasBudgetRetry
                books.jobs[primary]?.lastError =
                    "not ordered: \(domain) had \(settings.onDemandWeekly) certificates for aliases in 7 days "
                    + "(--acme-on-demand-weekly)"
                return domain
            }
            if books.budget != before { books.budgetChanged = true }
            books.jobs[primary]?.chargedNames = names
            return nil
        }
        guard let spent else { return true }
        logger.warning(
            "acme: alias budget spent; the certificate waits",
            metadata: [
                "names": "\(names.prefix(5).joined(separator: ","))\(names.count > 5 ? ",…" : "")",
                "domain": "\(spent)", "retry_seconds": "\(ACMESettings.aliasBudgetRetry)",
            ])
        return false
    }

    /// Certificates for aliases charged to `domain` in the last seven days (tests, status page).
    public func aliasCertificatesSpent(_ domain: String, now: Int = Int(time(nil))) -> Int {
        books.withLock { $0.budget.certificatesSpent(domain, now: now) }
    }
}
