import AASAACME
import AASALoop
import AASASites
import AssociationKit
@preconcurrency import Glibc

/// `/sites.json?q=…&page=N`: the status page's counts and one page of sites, for scripts.
struct SitesDocument: Encodable {
    struct Summary: Encodable {
        let sites: Int
        let aliases: Int
        let valid: Int
        let keptLastGood: Int
        let refused: Int
        let problems: Int
    }

    struct Problem: Encodable {
        let code: String
        let severity: String
        let message: String
        let line: Int?
        let column: Int?
        let pointer: String?

        init(_ problem: LoadProblem) {
            (code, severity, message) = (problem.code, problem.severity.rawValue, problem.message)
            (line, column, pointer) = (problem.lineNumber, problem.column, problem.pointer)
        }
    }

    struct File: Encodable {
        let file: String
        let valid: Bool
        let bytes: Int
        /// The entity-tag of the copy being served (the last good one for an invalid file).
        let servedETag: String?
        let problems: [Problem]
        /// `security.txt`'s `Expires`, seconds since the epoch.
        let expires: Int?
    }

    /// A served file deleted from the folder whose last copy serves until `servedUntil`.
    struct DeletedFile: Encodable {
        let file: String
        /// Seconds since the epoch.
        let deletedAt: Int
        let servedUntil: Int
        let servedETag: String?
    }

    /// The certificate ACME keeps for a site (`--acme on`), by docs/acme.md's states.
    struct Certificate: Encodable {
        /// `issued`, `waiting_dns`, `ordering`, `failing` or `expired`.
        let state: String
        let names: [String]
        /// Seconds since the epoch.
        let notAfter: Int?
        let nextAttempt: Int?
        /// The CA's problem, or the pre-flight's reason.
        let problem: String?

        init(_ managed: ManagedCertificate, now: Int) {
            (state, names, notAfter) = (managed.status(now: now), managed.names, managed.notAfter)
            nextAttempt = managed.state == .valid ? nil : managed.nextAttempt
            problem = managed.lastError
        }
    }

    struct Site: Encodable {
        let name: String
        /// At most `SiteListing.aliasesShown` of them; `aliasCount` counts them all.
        let aliases: [String]
        let aliasCount: Int
        let state: String
        let files: [File]
        let deletedFiles: [DeletedFile]
        /// The folder's own problems (an unreadable folder, a deleted file, misnamed files, its
        /// `site.json`'s), at most `SiteListing.problemsShown`; `problemCount` counts them all.
        let problems: [Problem]
        let problemCount: Int
        /// True when the site serves a `fallback.json` to people without the app.
        let fallback: Bool
        /// Where `/.well-known/change-password` redirects (`site.json`'s `changePassword`).
        let changePassword: String?
        /// Apple's CDN copy of this site's file, and Apple's fetcher's last visit.
        let cdn: SiteCDNStatus
        /// Google's view of this site's assetlinks.json.
        let google: SiteCacheStatus
        /// With `--acme on`: the site's certificate (nil for a wildcard site or without ACME).
        let certificate: Certificate?
    }

    let summary: Summary
    let query: String
    let page: Int
    let pages: Int
    let total: Int
    let sites: [Site]

    init(_ state: ServerState, _ snapshot: ServerSnapshot, _ listing: SiteListing) {
        let counts = snapshot.counts
        summary = Summary(
            sites: counts.sites, aliases: counts.aliases, valid: counts.valid, keptLastGood: counts.keptLastGood,
            refused: counts.refused, problems: snapshot.problems.count)
        (query, page, pages, total) = (listing.query, listing.page, listing.pages, listing.total)
        let now = Int(time(nil))
        sites = listing.records.map { record in
            let problems = snapshot.catalog.folderProblems(of: record)
            return Site(
                name: record.name, aliases: listing.aliases[record.name] ?? [],
                aliasCount: listing.aliasCounts[record.name] ?? 0, state: record.state.rawValue,
                files: record.checks.map { check in
                    File(
                        file: check.name, valid: check.isValid, bytes: check.byteCount,
                        servedETag: record.content?.file(named: check.name)?.etag,
                        problems: check.problems.map(Problem.init), expires: check.expires)
                },
                deletedFiles: record.deletedFiles.map { deleted in
                    DeletedFile(
                        file: deleted.name, deletedAt: deleted.deletedAt, servedUntil: deleted.servedUntil,
                        servedETag: record.content?.file(named: deleted.name)?.etag)
                }, problems: problems.prefix(SiteListing.problemsShown).map(Problem.init),
                problemCount: problems.count,
                fallback: record.content?.hasFallback ?? false,
                changePassword: record.content?.changePassword?.location,
                cdn: SiteCDNStatus(site: record.name, state: state),
                google: SiteCacheStatus(site: record.name, watch: state.googleWatch),
                certificate: state.acme?.managed(primary: record.name).map { Certificate($0, now: now) })
        }
    }

    var encoded: [UInt8] {
        var bytes: [UInt8] = []
        if let node = try? JSONNodeEncoder.node(self) {
            JSONWriter(sortedKeys: true).append(node, to: &bytes)
        } else {
            bytes = Array("{}".utf8)
        }
        return bytes + [0x0A]
    }
}
