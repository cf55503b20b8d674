import AASALoop
import AssociationKit
import Foundation
@preconcurrency import Glibc
import Prometheus

/// /metrics in the Prometheus text exposition format, from a snapshot taken at scrape time
/// (the serving path only ever adds to plain per-loop totals): swift-prometheus renders the
/// fixed families, `PrometheusText` the labelled ones. By default every family's cardinality
/// is independent of the number of sites (docs/usage.md, "Admin listener"); per-site series come
/// only with `--metrics-per-site on`, and capped (`MetricsReport+Sites.swift`).
enum MetricsReport {
    static func render(_ state: ServerState) -> String {
        let registry = PrometheusCollectorRegistry()
        var text = PrometheusText()
        let totals = LoopStatistics.sum(state.statistics)
        let snapshot = state.snapshots.current
        requests(totals, into: &text)
        registry.makeCounter(name: "aasa_response_body_bytes_total", help: "Body bytes sent.").increment(
            by: Int64(totals.bodyBytes))
        registry.makeCounter(
            name: "aasa_responses_encoded_total", labels: [("encoding", "gzip")],
            help: "200 responses with a body, by content encoding."
        )
        .increment(by: Int64(totals.gzipResponses))
        registry.makeCounter(
            name: "aasa_responses_encoded_total", labels: [("encoding", "identity")],
            help: "200 responses with a body, by content encoding."
        )
        .increment(by: Int64(totals.identityResponses))
        registry.makeCounter(name: "aasa_tls_handshakes_total", help: "Completed TLS handshakes.").increment(
            by: Int64(totals.handshakes))
        registry.makeCounter(
            name: "aasa_access_log_dropped_total", help: "Access-log lines dropped because stdout did not keep up."
        )
        .increment(by: Int64(totals.accessLogDropped))
        for (reason, count) in totals.handshakeFailures.sorted(by: { $0.key < $1.key }) {
            registry.makeCounter(
                name: "aasa_tls_handshake_failures_total", labels: [("reason", reason)],
                help: "Failed TLS handshakes, by reason."
            )
            .increment(by: Int64(count))
        }
        for kind in FallbackDecision.Kind.allCases {
            registry.makeCounter(
                name: "aasa_fallback_responses_total", labels: [("kind", kind.rawValue)],
                help: "Answers of fallback.json, by kind."
            )
            .increment(by: Int64(totals.fallback[kind.slot]))
        }
        registry.makeGauge(name: "aasa_open_connections", help: "Client connections open now.").set(
            Double(totals.openConnections))

        let reloads = state.reloads
        registry.makeCounter(name: "aasa_reloads_total", labels: [("result", "ok")], help: "Reloads, by result.")
            .increment(by: Int64(reloads.succeeded))
        registry.makeCounter(name: "aasa_reloads_total", labels: [("result", "partial")], help: "Reloads, by result.")
            .increment(by: Int64(reloads.partial))
        registry.makeCounter(name: "aasa_reloads_total", labels: [("result", "failed")], help: "Reloads, by result.")
            .increment(by: Int64(reloads.failed))
        registry.makeGauge(name: "aasa_last_reload_timestamp_seconds", help: "When the last reload was attempted.").set(
            Double(reloads.lastAttempt))
        registry.makeGauge(
            name: "aasa_last_reload_success_timestamp_seconds",
            help: "When the last reload succeeded (or the server started)."
        )
        .set(Double(reloads.lastSuccess))
        files(snapshot, into: &text)
        // The same two numbers as the log, the status page and /sites.json (docs/serving.md, "Counting sites").
        registry.makeGauge(
            name: "aasa_sites", help: "Site folders (one per domain or *.domain), in any state; aliases not included."
        ).set(Double(snapshot.counts.sites))
        registry.makeGauge(name: "aasa_site_aliases", help: "Aliases: links naming another site folder.").set(
            Double(snapshot.counts.aliases))
        if state.configuration.metricsPerSite { perSite(snapshot, totals, into: &text) }
        text.family(
            "aasa_certificate_expiry_timestamp_seconds", type: "gauge", help: "When each certificate expires.")
        for certificate in snapshot.certificates?.certificates ?? [] {
            let labels = [
                ("certificate", (certificate.folder as NSString).lastPathComponent),
                ("names", certificate.names.joined(separator: ",")),
            ]
            text.sample("aasa_certificate_expiry_timestamp_seconds", labels, Double(certificate.notAfter))
        }
        // The lifetime makes expiry alerts proportional (docker/prometheus-rules.yml).
        text.family(
            "aasa_certificate_lifetime_seconds", type: "gauge",
            help: "Each certificate's lifetime, notBefore to notAfter.")
        for certificate in snapshot.certificates?.certificates ?? [] {
            let labels = [
                ("certificate", (certificate.folder as NSString).lastPathComponent),
                ("names", certificate.names.joined(separator: ",")),
            ]
            text.sample("aasa_certificate_lifetime_seconds", labels, Double(certificate.lifetime))
        }
        if let manager = state.acme { acme(manager, into: &text) }
        cdn(state, into: &text)
        // One series per code and severity seen, so cardinality is bounded by the code table.
        let problemCounts = Dictionary(grouping: snapshot.problems, by: { [$0.code, $0.severity.rawValue] })
        for (key, problems) in problemCounts.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            registry.makeGauge(
                name: "aasa_load_problems", labels: [("code", key[0]), ("severity", key[1])],
                help: "Problems the last load found in the sites and certificates, by code and severity."
            ).set(Double(problems.count))
        }
        registry.makeGauge(name: "aasa_process_resident_memory_bytes", help: "Resident memory of the process.").set(
            Double(residentMemory()))
        registry.makeGauge(name: "aasa_process_start_time_seconds", help: "When the process started.").set(
            Double(state.started))
        return registry.emitToString() + text.text
    }

    /// From /proc/self/statm (proc(5)): resident pages times the page size.
    static func residentMemory() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
