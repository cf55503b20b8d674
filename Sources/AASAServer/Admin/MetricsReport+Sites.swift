import AASALoop
import AASASiteServing
import AASASites
import AssociationKit
import Foundation
@preconcurrency import Glibc

extension MetricsReport {
    /// Per-site series cover at most this many sites (the busiest), plus every site with an
    /// invalid file, so a scrape stays small with 100,000 sites (Prometheus' advice: keep
    /// label cardinality bounded).
    static let perSiteLimit = 1000

    /// `aasa_requests_total{path,status}`: requests summed over sites.
    static func requests(_ totals: LoopStatistics.Totals, into text: inout PrometheusText) {
        text.family("aasa_requests_total", type: .counter, help: "Requests answered, by path and status.")
        let counted = totals.requests.nonZero(labels: SiteHandler.countedPaths)
        for (path, status, count) in counted.sorted(by: { ($0.path, $0.status) < ($1.path, $1.status) }) {
            text.sample("aasa_requests_total", [("path", path), ("status", String(status))], Double(count))
        }
    }

    /// `aasa_site_files{file,valid}`: how many site files of each kind are valid, and how many
    /// are not (each of those keeps its last good copy serving).
    static func files(_ snapshot: ServerSnapshot, into text: inout PrometheusText) {
        text.family(
            "aasa_site_files", type: .gauge,
            help: "Site files on disk, by file and validity (an invalid file's last good copy serves).")
        for kind in FileCheck.Kind.allCases {
            let (valid, invalid) = (snapshot.counts.validFiles[kind] ?? 0, snapshot.counts.invalidFiles[kind] ?? 0)
            text.sample("aasa_site_files", [("file", kind.rawValue), ("valid", "true")], Double(valid))
            text.sample("aasa_site_files", [("file", kind.rawValue), ("valid", "false")], Double(invalid))
        }
        // One series per invalid file, and only for those (the alert names the site), bounded.
        text.family(
            "aasa_site_invalid_files", type: .gauge,
            help: "1 for each site file that does not pass the validator, by site and file (first 1,000 by site).")
        var invalid: [(site: String, file: String)] = []
        for record in snapshot.catalog.records.values where record.state != .valid {
            for check in record.checks where !check.isValid { invalid.append((record.name, check.kind.rawValue)) }
        }
        for (site, file) in invalid.sorted(by: { ($0.site, $0.file) < ($1.site, $1.file) }).prefix(outOfSyncLimit) {
            text.sample("aasa_site_invalid_files", [("site", site), ("file", file)], real: 1)
        }
        gauge(
            "aasa_site_files_deleted", "Served files deleted from their site folder whose last copy still serves.",
            snapshot.counts.deletedFiles, into: &text)
    }

    /// `aasa_security_txt_expiry_seconds{site}`: seconds until each `security.txt` expires, for
    /// the files within 30 days of it (negative once past); counted at each scrape, as the file
    /// is not read again while its `Expires` comes closer. Bounded: only files near their end.
    static func securityTxtExpiry(_ snapshot: ServerSnapshot, into text: inout PrometheusText) {
        text.family(
            "aasa_security_txt_expiry_seconds", type: .gauge,
            help: "Seconds until the site's security.txt expires (RFC 9116 Expires), for files within 30 days of it.")
        let now = Int(time(nil))
        let expiring = snapshot.catalog.records.compactMap { name, record -> (String, Int)? in
            guard let expires = record.checks.first(where: { $0.kind == .securityTxt })?.expires,
                expires - now <= SecurityTxtValidator.expiryWarning
            else { return nil }
            return (name, expires - now)
        }
        for (site, left) in expiring.sorted(by: { $0.0 < $1.0 }) {
            text.sample("aasa_security_txt_expiry_seconds", [("site", site)], Double(left))
        }
    }

    /// The per-site families, for the busiest `perSiteLimit` sites and every invalid one.
    static func perSite(_ snapshot: ServerSnapshot, _ totals: LoopStatistics.Totals, into text: inout PrometheusText) {
        var requestsBySite: [String: Int] = [:]
        for (key, count) in totals.siteRequests where key.site != "-" { requestsBySite[key.site, default: 0] += count }
        let records = snapshot.catalog.records
        let names = Set(records.keys).union(requestsBySite.keys)
        let busiest = names.sorted { (requestsBySite[$0] ?? 0, $1) > (requestsBySite[$1] ?? 0, $0) }
            .prefix(perSiteLimit)
        let invalid = records.values.filter { $0.state != .valid }.map(\.name)
        let chosen = Set(busiest).union(invalid)

        text.family(
            "aasa_site_requests_total", type: .counter,
            help: "Requests answered, by site, path and status (the busiest sites and every invalid one).")
        for (key, count) in totals.siteRequests.sorted(by: {
            ($0.key.site, $0.key.path, $0.key.status) < ($1.key.site, $1.key.path, $1.key.status)
        }) where chosen.contains(key.site) {
            text.sample(
                "aasa_site_requests_total", [("site", key.site), ("path", key.path), ("status", String(key.status))],
                Double(count))
        }
        let now = Double(time(nil))
        let files = chosen.sorted().flatMap { name in
            (records[name]?.checks ?? []).map { check in (check, [("site", name), ("file", check.name)]) }
        }
        text.family(
            "aasa_site_file_valid", type: .gauge,
            help: "1 when the site's file on disk is valid, 0 when not (the last good copy serves).")
        for (check, labels) in files { text.sample("aasa_site_file_valid", labels, check.isValid ? 1 : 0) }
        text.family("aasa_site_file_bytes", type: .gauge, help: "Size of the site's file on disk.")
        for (check, labels) in files { text.sample("aasa_site_file_bytes", labels, Double(check.byteCount)) }
        text.family("aasa_site_file_age_seconds", type: .gauge, help: "Seconds since the site's file was modified.")
        for (check, labels) in files {
            text.sample("aasa_site_file_age_seconds", labels, max(0, now - Double(check.modified)))
        }
    }
}
