import AASALoop
import AASASiteServing
import AASASites
import AASATransport
import Foundation

/// Everything one load produced, immutable once built: the `ServingSnapshot` the loops read
/// (the site table and the certificates), and the record the admin listener, ACME and the CDN
/// watch read (every site's record, every problem, typed, and counts over them). One loader
/// builds it (`SnapshotLoader`), for start-up and for reload; `ServerSnapshotBox` publishes
/// both halves together.
public final class ServerSnapshot: Sendable {
    public let serving: ServingSnapshot
    /// Every entry of the sites folder: records (shared with the snapshot before when
    /// unchanged), aliases, skipped entries.
    public let catalog: SiteCatalog
    /// Every problem of the load: the sites' (notes left out), then problems of the skipped
    /// entries and aliases, then the certificates'.
    public let problems: [LoadProblem]
    /// The certificates' problems alone (kept by a reload that does not read them again).
    public let certificateProblems: [LoadProblem]
    public let counts: SiteCatalog.Counts

    init(
        serving: ServingSnapshot, catalog: SiteCatalog, siteProblems: [LoadProblem],
        certificateProblems: [LoadProblem], counts: SiteCatalog.Counts
    ) {
        self.serving = serving
        self.catalog = catalog
        problems = siteProblems + certificateProblems
        self.certificateProblems = certificateProblems
        self.counts = counts
    }

    public var table: SiteTable { serving.table }
    public var certificates: CertificateStore? { serving.certificates }

    /// The checks of the site folder `name` (none for an alias).
    public func checks(ofSite name: String) -> [FileSummary] {
        catalog.records[name]?.checks ?? []
    }
}
