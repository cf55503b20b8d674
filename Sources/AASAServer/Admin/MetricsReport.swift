import AASALoop
import AASASiteServing
import AASASystem
import AssociationKit
import Foundation
@preconcurrency import Glibc

/// /metrics in the Prometheus text exposition format, from a snapshot taken at scrape time
/// (the serving path only ever adds to plain per-loop totals), all written by `PrometheusText`.
/// By default every family's cardinality is independent of the number of sites (docs/admin.md,
/// "Admin listener"); per-site series come only with `--metrics-per-site on`, and capped
/// (`MetricsReport+Sites.swift`).
enum MetricsReport {
    static func render(_ state: ServerState) -> String {
        var text = PrometheusText()
        let totals = LoopStatistics.sum(state.statistics)
        let snapshot = state.snapshots.current
        requests(totals, into: &text)
        counter("aasa_response_body_bytes_total", "Body bytes sent.", totals.bodyBytes, into: &text)
        text.family(
            "aasa_responses_encoded_total", type: .counter, help: "200 responses with a body, by content encoding.")
        text.sample("aasa_responses_encoded_total", [("encoding", "gzip")], Double(totals.gzipResponses))
        text.sample("aasa_responses_encoded_total", [("encoding", "identity")], Double(totals.identityResponses))
        counter("aasa_tls_handshakes_total", "Completed TLS handshakes.", totals.handshakes, into: &text)
        counter(
            "aasa_access_log_dropped_total", "Access-log lines dropped because stdout did not keep up.",
            totals.accessLogDropped, into: &text)
        // Present once a handshake has failed, so the reasons seen bound its cardinality.
        if !totals.handshakeFailures.isEmpty {
            text.family("aasa_tls_handshake_failures_total", type: .counter, help: "Failed TLS handshakes, by reason.")
        }
        for (reason, count) in totals.handshakeFailures.sorted(by: { $0.key < $1.key }) {
            text.sample("aasa_tls_handshake_failures_total", [("reason", reason)], Double(count))
        }
        text.family("aasa_fallback_responses_total", type: .counter, help: "Answers of fallback.json, by kind.")
        for kind in FallbackDecision.Kind.allCases {
            let count = totals.kinds.indices.contains(kind.slot) ? totals.kinds[kind.slot] : 0
            text.sample("aasa_fallback_responses_total", [("kind", kind.rawValue)], Double(count))
        }
        gauge("aasa_open_connections", "Client connections open now.", totals.openConnections, into: &text)
        gauge(
            "aasa_tls_handshakes_in_progress", "TLS handshakes begun and not finished.", totals.handshakesInProgress,
            into: &text)
        text.family(
            "aasa_connections_closed_at_cap_total", type: .counter,
            help:
                "Connections closed to stay within a cap: the oldest handshake, the longest idle connection, or the "
                + "longest waiting for a certificate or a challenge's answer.")
        text.sample(
            "aasa_connections_closed_at_cap_total", [("cap", "handshakes")], Double(totals.handshakesClosedAtCap))
        text.sample("aasa_connections_closed_at_cap_total", [("cap", "connections")], Double(totals.idleClosedAtCap))
        text.sample("aasa_connections_closed_at_cap_total", [("cap", "waiting")], Double(totals.waitingClosedAtCap))
        counter(
            "aasa_accepts_deferred_total",
            "Times a loop stopped accepting at the connection cap with nothing idle to close.", totals.acceptsDeferred,
            into: &text)

        gauge(
            "aasa_listeners_lost", "Loops' listeners that stopped accepting for good (/readyz fails while above 0).",
            state.statistics.reduce(0) { $0 + $1.listenersLost }, into: &text)

        let reloads = state.reloads
        text.family("aasa_reloads_total", type: .counter, help: "Reloads, by result.")
        text.sample("aasa_reloads_total", [("result", "ok")], Double(reloads.succeeded))
        text.sample("aasa_reloads_total", [("result", "partial")], Double(reloads.partial))
        text.sample("aasa_reloads_total", [("result", "failed")], Double(reloads.failed))
        gauge(
            "aasa_last_reload_timestamp_seconds", "When the last reload was attempted.", reloads.lastAttempt,
            into: &text)
        gauge(
            "aasa_last_reload_success_timestamp_seconds", "When the last reload succeeded (or the server started).",
            reloads.lastSuccess, into: &text)
        files(snapshot, into: &text)
        securityTxtExpiry(snapshot, into: &text)
        // The same two numbers as the log, the status page and /sites.json (docs/serving.md, "Counting sites").
        gauge(
            "aasa_sites", "Site folders (one per domain or *.domain), in any state; aliases not included.",
            snapshot.counts.sites, into: &text)
        gauge(
            "aasa_site_aliases", "Aliases: links or site.json names serving another site folder's files.",
            snapshot.counts.aliases, into: &text)
        // Folders past inotify's limit, sites and certificates alike (docs/serving.md, "Many sites").
        text.family(
            "aasa_unwatched_folders", type: .gauge,
            help: "Site and certificate folders the file watcher could not watch (fs.inotify.max_user_watches).")
        text.sample("aasa_unwatched_folders", [("kind", "sites")], real: Double(state.unwatched.sites))
        text.sample("aasa_unwatched_folders", [("kind", "certificates")], real: Double(state.unwatched.certificates))
        if state.configuration.metricsPerSite { perSite(snapshot, totals, into: &text) }
        certificates(snapshot.certificates, into: &text)
        if let manager = state.acme { acme(manager, into: &text) }
        cdn(state, into: &text)
        if let watch = state.googleWatch { cacheWatch(watch, prefix: "google", into: &text) }
        // One series per code and severity seen, so cardinality is bounded by the code table.
        let problemCounts = Dictionary(grouping: snapshot.problems, by: { [$0.code, $0.severity.rawValue] })
        if !problemCounts.isEmpty {
            text.family(
                "aasa_load_problems", type: .gauge,
                help: "Problems the last load found in the sites and certificates, by code and severity.")
        }
        for (key, problems) in problemCounts.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            text.sample("aasa_load_problems", [("code", key[0]), ("severity", key[1])], real: Double(problems.count))
        }
        gauge("aasa_process_resident_memory_bytes", "Resident memory of the process.", residentMemory(), into: &text)
        gauge("aasa_process_start_time_seconds", "When the process started.", state.started, into: &text)
        return text.text
    }

    /// A counter family of one unlabelled sample.
    static func counter(_ name: String, _ help: String, _ value: Int, into text: inout PrometheusText) {
        text.family(name, type: .counter, help: help)
        text.sample(name, [], Double(value))
    }

    /// A gauge family of one unlabelled sample, written `2.0` as these gauges always were.
    static func gauge<Value: BinaryInteger>(
        _ name: String, _ help: String, _ value: Value, into text: inout PrometheusText
    ) {
        text.family(name, type: .gauge, help: help)
        text.sample(name, [], real: Double(value))
    }

    /// From /proc/self/statm (proc(5)): resident pages times the page size.
    static func residentMemory() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Posix.pageSize()
    }
}
