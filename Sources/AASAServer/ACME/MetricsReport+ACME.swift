import AASAACME
import AASAStore

extension MetricsReport {
    /// ACME's series (docs/acme.md, "Automatic certificates"): every issuer and result label
    /// present from the start (0 until counted), so a rate over them never starts missing.
    static func acme(_ manager: ACMEManager, into text: inout PrometheusText) {
        let results = manager.results()
        for (family, kind, help) in [
            ("aasa_acme_orders_total", "order", "ACME orders for certificates not held before, by issuer and result."),
            ("aasa_acme_renewals_total", "renewal", "ACME orders renewing a held certificate, by issuer and result."),
        ] {
            text.family(family, type: .counter, help: help)
            for issuer in manager.issuers.map(\.label) {
                for result in ["valid", "failed"] {
                    text.sample(
                        family, [("issuer", issuer), ("result", result)],
                        Double(results["\(kind)_\(result)|\(issuer)"] ?? 0))
                }
            }
        }
        text.family(
            "aasa_acme_on_demand_refused_total", type: .counter,
            help:
                "On-demand names not ordered: the hourly rate or the weekly budget spent, dropped after failures, "
                + "matching no --acme-on-demand-names pattern, or not allowed by --acme-on-demand-ask.")
        for refusal in ACMEManager.Refusal.allCases {
            text.sample(
                "aasa_acme_on_demand_refused_total", [("reason", refusal.rawValue)],
                Double(results["on_demand_\(refusal.rawValue)"] ?? 0))
        }
        text.family(
            "aasa_acme_on_demand_asks_total", type: .counter,
            help: "Answers of --acme-on-demand-ask: allowed (2xx), refused (any other status), failed (none in 5 s).")
        for result in ["allowed", "refused", "failed"] {
            text.sample("aasa_acme_on_demand_asks_total", [("result", result)], Double(results["ask_\(result)"] ?? 0))
        }
        text.family(
            "aasa_acme_renewals_deferred_total", type: .counter,
            help: "Renewals renewal information asked for within a day of the last certificate, put off to then.")
        text.sample("aasa_acme_renewals_deferred_total", [], Double(results["renewal_deferred"] ?? 0))
        let lookups = manager.board.lookupCounts
        text.family(
            "aasa_acme_challenge_lookups_total", type: .counter,
            help:
                "Checks for a challenge this replica did not post, by result: found or absent in the store, failed "
                + "(the store did not answer), cached (answered from an earlier lookup), refused (the client's share "
                + "was taken), preflight (a pre-flight's own token, found or not), prefetched (read ahead on another "
                + "replica's change notice), notice_dropped (a change notice past the 1,024 waiting, not read ahead).")
        for (result, count) in [
            ("found", lookups.found), ("absent", lookups.absent), ("failed", lookups.failed),
            ("cached", lookups.cached), ("refused", lookups.refused), ("preflight", lookups.preflight),
            ("prefetched", lookups.prefetched), ("notice_dropped", lookups.noticesDropped),
        ] {
            text.sample("aasa_acme_challenge_lookups_total", [("result", result)], Double(count))
        }
        let preflights = manager.preflightTotals
        text.family(
            "aasa_acme_preflight_checks_total", type: .counter,
            help: "Checks before an order (resolves, reaches this deployment over HTTP), by result.")
        for (result, count) in [("passed", preflights.checks - preflights.failed), ("failed", preflights.failed)] {
            text.sample("aasa_acme_preflight_checks_total", [("result", result)], Double(count))
        }
        text.family(
            "aasa_acme_preflight_dns_queries_total", type: .counter,
            help: "DNS queries the checks sent to --acme-preflight-resolver (0 with the system's resolver).")
        text.sample("aasa_acme_preflight_dns_queries_total", [], Double(preflights.dnsQueries))
        text.family(
            "aasa_acme_preflight_seconds_total", type: .counter,
            help: "Time the checks took, all names together (resolution and HTTP requests).")
        text.sample("aasa_acme_preflight_seconds_total", [], preflights.seconds)
        store(manager.store.health, into: &text)
        // The five states users see (docs/customer-domains.md), each present from the start.
        let summary = manager.summary(unissuedLimit: outOfSyncLimit)
        text.family(
            "aasa_acme_certificates", type: .gauge,
            help: "Certificates ACME keeps, by state: issued, waiting_dns, ordering, failing, expired.")
        for condition in ManagedCertificate.Condition.allCases {
            text.sample(
                "aasa_acme_certificates", [("state", condition.rawValue)], Double(summary.counts[condition] ?? 0))
        }
        // One series per site without a valid certificate (waiting for its DNS, ordering,
        // failing, expired), and only for those: AASACertificateNotIssued fires after a day of it.
        text.family(
            "aasa_acme_certificate_unissued", type: .gauge,
            help: "1 for each site ACME has no certificate for yet, by its first name (first 1,000 by name).")
        for site in summary.unissued {
            text.sample("aasa_acme_certificate_unissued", [("site", site)], real: 1)
        }
    }

    /// The shared store's reachability and errors (docs/acme.md, "Several replicas, one store").
    static func store(_ health: StoreHealth, into text: inout PrometheusText) {
        text.family("aasa_store_up", type: .gauge, help: "1 while the store replicas share answers, else 0.")
        text.sample("aasa_store_up", [], health.isUp ? 1 : 0)
        text.family("aasa_store_errors_total", type: .counter, help: "Failed store calls, by operation.")
        for (operation, count) in health.errorCounts {
            text.sample("aasa_store_errors_total", [("operation", operation.rawValue)], Double(count))
        }
    }
}
