import AASAACME
import AssociationKit
import Logging
import TestSupport
import Testing

@testable import AASAServer

/// ACME's part of `/metrics` stays bounded however many sites ask for certificates (docs/acme.md,
/// "Many sites"): counts by the five states users see, and a series per site only for those
/// without a certificate, at most `MetricsReport.outOfSyncLimit` of them.
@Suite("ACME metrics at 10,000 and 100,000 sites")
struct ACMEMetricsBoundTests {
    @Test("counts by state, at most 1,000 per-site series, under 200 KiB", arguments: [10_000, 100_000])
    func bounded(_ count: Int) throws {
        let folder = try TemporaryFolder("acme-metrics")
        let manager = ACMEManager(
            settings: ACMESettings(), certificates: folder.path(), challenges: [.http01],
            publicSuffixes: PublicSuffixList(text: ""), logger: Logger(label: "test"))
        let plans = (0..<count).map { CertificatePlan(names: ["shop\($0).example.com"], onDemand: false) }
        manager.update(plans: plans, certificates: [])
        var text = PrometheusText()
        MetricsReport.acme(manager, into: &text)
        let lines = text.text.split(separator: "\n")
        // Nothing is held yet: every site is being ordered, and only the first 1,000 by name have a series.
        #expect(lines.contains("aasa_acme_certificates{state=\"ordering\"} \(count)"))
        for state in ["issued", "waiting_dns", "failing", "expired"] {
            #expect(lines.contains("aasa_acme_certificates{state=\"\(state)\"} 0"))
        }
        let series = lines.filter { $0.hasPrefix("aasa_acme_certificate_unissued{") }
        #expect(series.count == MetricsReport.outOfSyncLimit)
        #expect(series.first == "aasa_acme_certificate_unissued{site=\"shop0.example.com\"} 1.0")
        #expect(text.text.utf8.count < 200 * 1024, "\(text.text.utf8.count) bytes")
    }
}
