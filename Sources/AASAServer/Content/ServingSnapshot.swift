import AASASites
import AASATransport
import Foundation

/// Everything one load produced, immutable once built: the site table the loops serve, the
/// certificates new TLS connections start with, and what the load found (every file's check
/// and every problem, typed). One loader builds it (`SnapshotLoader`), for start-up and for
/// reload; `SnapshotBox` publishes it. A TLS connection keeps the certificate store it began
/// with, so an old snapshot's OpenSSL contexts are freed when its last connection closes.
public final class ServingSnapshot: Sendable {
    public let table: SiteTable
    public let certificates: CertificateStore?
    /// Every file the load read, valid or not (the metrics' file gauges, the status page).
    public let checks: [FileCheck]
    /// Every problem of the load: the files' diagnostics (notes left out), then problems of
    /// the folders and aliases, then the certificates'.
    public let problems: [LoadProblem]
    /// Seconds since the epoch.
    public let loadedAt: Int

    init(table: SiteTable, certificates: CertificateStore?, checks: [FileCheck], problems: [LoadProblem]) {
        self.table = table
        self.certificates = certificates
        self.checks = checks
        self.problems = problems
        loadedAt = Int(Date().timeIntervalSince1970)
    }

    /// The checks grouped by the site they belong to.
    public var checksBySite: [String: [FileCheck]] {
        Dictionary(grouping: checks.filter { $0.site != nil }, by: { $0.site ?? "" })
    }
}
