import AASASites
import AASATransport
import Foundation

/// Everything one load produced, immutable once built: the site table the loops serve, the
/// certificates new TLS connections start with, and what the load found (every site's
/// record, every problem, typed, and counts over them). One loader builds it
/// (`SnapshotLoader`), for start-up and for reload; `SnapshotBox` publishes it. A TLS
/// connection keeps the certificate store it began with, so an old snapshot's OpenSSL
/// contexts are freed when its last connection closes.
public final class ServingSnapshot: Sendable {
    public let table: SiteTable
    public let certificates: CertificateStore?
    /// Every entry of the sites folder: records (shared with the snapshot before when
    /// unchanged), aliases, skipped entries.
    public let catalog: SiteCatalog
    /// Every problem of the load: the sites' (notes left out), then problems of the skipped
    /// entries and aliases, then the certificates'.
    public let problems: [LoadProblem]
    /// The certificates' problems alone (kept by a reload that does not read them again).
    public let certificateProblems: [LoadProblem]
    public let counts: SiteCatalog.Counts
    /// Seconds since the epoch.
    public let loadedAt: Int

    package init(
        table: SiteTable, certificates: CertificateStore?, catalog: SiteCatalog, siteProblems: [LoadProblem],
        certificateProblems: [LoadProblem], counts: SiteCatalog.Counts
    ) {
        self.table = table
        self.certificates = certificates
        self.catalog = catalog
        problems = siteProblems + certificateProblems
        self.certificateProblems = certificateProblems
        self.counts = counts
        loadedAt = Int(Date().timeIntervalSince1970)
    }

    /// The checks of the site folder `name` (none for an alias).
    public func checks(ofSite name: String) -> [FileSummary] {
        catalog.records[name]?.checks ?? []
    }
}
