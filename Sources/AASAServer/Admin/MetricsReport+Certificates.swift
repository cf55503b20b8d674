import AASATransport
import Foundation
@preconcurrency import Glibc

extension MetricsReport {
    /// Per-certificate series at most: with 100,000 certificates one series each was 22 MB.
    static let certificateSeries = 500
    /// Beside those in trouble, the few soonest to expire always have series (a dashboard's
    /// "next to expire").
    static let soonestCertificates = 10

    /// The certificates counted by state, and per-certificate series (expiry, lifetime) only
    /// for those past their renewal point (a third of the lifetime left, where the alert rules'
    /// windows lie) and the few soonest to expire: bounded however many certificates there
    /// are (docs/certificates.md, "Many certificates"). Then what the cache of loaded certificates holds.
    /// Without HTTPS the expiry and lifetime families are there, empty (the alert rules name them).
    static func certificates(_ store: CertificateStore?, now: Int = Int(time(nil)), into text: inout PrometheusText) {
        guard let store else {
            text.family(
                "aasa_certificate_expiry_timestamp_seconds", type: .gauge,
                help: "When each certificate past its renewal point, or among the soonest to expire, expires.")
            text.family(
                "aasa_certificate_lifetime_seconds", type: .gauge,
                help: "The lifetime, notBefore to notAfter, of each certificate with an expiry series.")
            return
        }
        var counts: [String: Int] = ["valid": 0, "renewal_due": 0, "expiring": 0]
        var trouble: [CertificateStore.Certificate] = []
        for certificate in store.certificates {
            let left = certificate.notAfter - now
            if left < CertificateStore.warningWindow(lifetime: certificate.lifetime) {
                counts["expiring", default: 0] += 1
            } else if left < certificate.lifetime / 3 {
                counts["renewal_due", default: 0] += 1
            } else {
                counts["valid", default: 0] += 1
                continue
            }
            trouble.append(certificate)
        }
        text.family(
            "aasa_certificates", type: .gauge,
            help: "Certificates by state: valid, renewal_due (a third of the lifetime left), expiring (CERT002).")
        for state in counts.keys.sorted() {
            text.sample("aasa_certificates", [("state", state)], real: Double(counts[state] ?? 0))
        }
        let soonest = store.soonestToExpire(soonestCertificates)
        var shown = Set<String>()
        let series = (trouble.sorted { $0.notAfter < $1.notAfter } + soonest).filter {
            shown.insert($0.files.chain).inserted
        }.prefix(certificateSeries)
        text.family(
            "aasa_certificate_expiry_timestamp_seconds", type: .gauge,
            help: "When each certificate past its renewal point, or among the soonest to expire, expires.")
        for certificate in series {
            text.sample("aasa_certificate_expiry_timestamp_seconds", labels(certificate), Double(certificate.notAfter))
        }
        // The lifetime makes expiry alerts proportional (docker/prometheus-rules.yml).
        text.family(
            "aasa_certificate_lifetime_seconds", type: .gauge,
            help: "The lifetime, notBefore to notAfter, of each certificate with an expiry series.")
        for certificate in series {
            text.sample("aasa_certificate_lifetime_seconds", labels(certificate), Double(certificate.lifetime))
        }
        let cache = store.cache.counts
        gauge(
            "aasa_certificates_loaded", "Certificates loaded for handshakes (each when its name is first asked for).",
            cache.loaded, into: &text)
        gauge(
            "aasa_certificate_cache_bytes", "Approximate bytes of the loaded certificates.", cache.bytes, into: &text)
        gauge(
            "aasa_certificate_cache_budget_bytes", "The loaded certificates' budget (--certificate-cache-mib).",
            cache.budget, into: &text)
        counter("aasa_certificate_loads_total", "Certificates loaded for a handshake.", cache.loads, into: &text)
        counter(
            "aasa_certificate_evictions_total",
            "Loaded certificates dropped, least recently used first, for the budget.",
            cache.evictions, into: &text)
        gauge(
            "aasa_certificate_loads_queued", "Certificates queued or loading for a handshake.", cache.pending,
            into: &text)
        counter(
            "aasa_certificate_loads_refused_total",
            "Handshakes failed without queuing their certificate: the client's share of the loader's queue, or the "
                + "queue, was full (docs/security.md, \"Work a stranger can queue\").", cache.refused, into: &text)
        gauge(
            "aasa_certificate_load_failures",
            "Certificates that could not be loaded at their first handshake (the key does not match, "
                + "cannot be read; or descriptors or memory short, tried again).", cache.failures.count, into: &text)
        counter(
            "aasa_certificate_load_retries_total",
            "Loads tried again after failing for the system's state (descriptors or memory short, an I/O error).",
            cache.retries, into: &text)
    }

    private static func labels(_ certificate: CertificateStore.Certificate) -> [(String, String)] {
        [
            ("certificate", (certificate.folder as NSString).lastPathComponent),
            ("names", certificate.names.joined(separator: ",")),
        ]
    }
}
