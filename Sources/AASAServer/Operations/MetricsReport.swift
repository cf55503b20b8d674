import Foundation
@preconcurrency import Glibc
import Prometheus

/// /metrics in the Prometheus text exposition format, from a snapshot taken at scrape time
/// (the serving path only ever adds to plain per-loop totals): swift-prometheus renders the
/// fixed families, `PrometheusText` the ones with a series per site.
enum MetricsReport {
    static func render(_ state: ServerState) -> String {
        let registry = PrometheusCollectorRegistry()
        var perSite = PrometheusText()
        let totals = LoopStatistics.sum(state.statistics)
        perSite.family("aasa_requests_total", type: "counter", help: "Requests answered, by site, path and status.")
        for (key, count) in totals.requests.sorted(by: {
            ($0.key.site, $0.key.path, $0.key.status) < ($1.key.site, $1.key.path, $1.key.status)
        }) {
            perSite.sample(
                "aasa_requests_total", [("site", key.site), ("path", key.path), ("status", String(key.status))],
                Double(count))
        }
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
        let now = Double(time(nil))
        let snapshot = state.snapshots.current
        let files = snapshot.checks.map { check in
            (check, [("site", check.site ?? ""), ("file", check.kind.rawValue)])
        }
        perSite.family(
            "aasa_site_file_valid", type: "gauge",
            help: "1 when the site's file on disk is valid, 0 when not (the last good copy serves).")
        for (check, labels) in files { perSite.sample("aasa_site_file_valid", labels, check.isValid ? 1 : 0) }
        perSite.family("aasa_site_file_bytes", type: "gauge", help: "Size of the site's file on disk.")
        for (check, labels) in files { perSite.sample("aasa_site_file_bytes", labels, Double(check.byteCount)) }
        perSite.family("aasa_site_file_age_seconds", type: "gauge", help: "Seconds since the site's file was modified.")
        for (check, labels) in files {
            perSite.sample("aasa_site_file_age_seconds", labels, max(0, now - Double(check.modified)))
        }
        perSite.family(
            "aasa_certificate_expiry_timestamp_seconds", type: "gauge", help: "When each certificate expires.")
        for certificate in snapshot.certificates?.certificates ?? [] {
            let labels = [
                ("certificate", (certificate.folder as NSString).lastPathComponent),
                ("names", certificate.names.joined(separator: ",")),
            ]
            perSite.sample("aasa_certificate_expiry_timestamp_seconds", labels, Double(certificate.notAfter))
        }
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
        return registry.emitToString() + perSite.text
    }

    /// From /proc/self/statm (proc(5)): resident pages times the page size.
    static func residentMemory() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
