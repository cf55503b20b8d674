import AASASites
import AASATransport
import Foundation

/// The one place a `ServingSnapshot` is built, for start-up (no previous snapshot) and for
/// every reload (the previous one supplies the last good files of invalid sites and, when
/// the certificates fail to load, the certificates).
public enum SnapshotLoader {
    /// `ok`: everything loaded is valid and applied. `partial`: some sites took new files
    /// while others kept their last good ones (or the certificates were kept). `failed`:
    /// nothing new applied.
    public enum Outcome: String, Sendable {
        case ok, partial, failed
    }

    public struct Load: Sendable {
        /// Nil when the sites folder cannot be read: nothing new can serve.
        public let snapshot: ServingSnapshot?
        public let outcome: Outcome
        /// Names (aliases included) whose files differ from the previous snapshot's.
        public let changed: [String]
        /// Sites that kept their last good files (or, new, serve nothing), and `certificates`
        /// when the certificates did not load.
        public let kept: [String]
        /// Every problem found, typed, also when no snapshot could be built.
        public let problems: [LoadProblem]
        public let sitesReadable: Bool
        /// Every site file valid and every alias resolved.
        public let sitesValid: Bool
        public let certificatesFailed: Bool
    }

    public static func load(_ configuration: ServerConfiguration, previous: ServingSnapshot?) -> Load {
        let sites = SiteLoader.load(
            URL(fileURLWithPath: configuration.sites), cacheControl: configuration.cacheControl,
            previous: previous?.table)
        var certificates: CertificateStore?
        var certificateProblems: [LoadProblem] = []
        if configuration.https != nil {
            let result = CertificateStore.load(
                directory: configuration.certs, defaultName: configuration.defaultCertificate)
            certificates = result.store
            certificateProblems = result.problems
        }
        let certificatesFailed = configuration.https != nil && certificates == nil
        let problems = sites.allProblems + certificateProblems
        let kept =
            sites.keptSites + sites.refusedSites.map { $0 + " (new, not served)" }
            + (certificatesFailed ? ["certificates"] : [])
        guard let table = sites.table else {
            return Load(
                snapshot: nil, outcome: .failed, changed: [], kept: kept, problems: problems, sitesReadable: false,
                sitesValid: false, certificatesFailed: certificatesFailed)
        }
        let snapshot = ServingSnapshot(
            table: table, certificates: certificates ?? previous?.certificates, checks: sites.checks,
            problems: problems)
        let changed = previous.map { table.changedNames(since: $0.table) } ?? table.names
        let outcome: Outcome =
            sites.isValid && !certificatesFailed ? .ok : (previous == nil || changed.isEmpty) ? .failed : .partial
        return Load(
            snapshot: snapshot, outcome: outcome, changed: changed, kept: kept, problems: problems,
            sitesReadable: true, sitesValid: sites.isValid, certificatesFailed: certificatesFailed)
    }
}
