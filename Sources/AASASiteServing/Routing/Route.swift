import AASALoop
import AssociationKit

/// What a request to a site gets, decided before any response is written: the routing step
/// of docs/ARCHITECTURE.md ("The path of a request"). The paths of the table of kinds, the
/// rest of `/.well-known/` and ACME's challenges come first: `/.well-known/` is never a page,
/// whatever the site's fallback says (docs/serving.md, "Every file a domain owes").
enum Route {
    /// A served path; nil `file` when the site has no such file (404).
    case file(ServedPath, PreparedFile?)
    /// `/.well-known/change-password` of a site whose `site.json` names where to go.
    case redirect(PreparedRedirect)
    /// `/.well-known/acme-challenge/…`: HTTP-01, else 404.
    case challenge
    /// Any other path (not under `/.well-known/`) of a site with a `fallback.json`.
    case fallback(SiteFallback)
    /// Any other path of a site without one, and every other path under `/.well-known/`.
    case notFound

    /// The route of the path `range` of `buffer` (origin-form, any query included). Inlined:
    /// on the association-file path the enum's payload then never leaves registers.
    @inline(__always)
    init(_ buffer: UnsafeBufferPointer<UInt8>, path range: Range<Int>, site: SiteContent?, paths: ServedPathTable) {
        switch paths.match(buffer, range) {
        case .served(let served, let slot):
            self = .file(served, site?.file(slot: slot))
        case .wellKnown(let tail):
            let challenge = Self.challengeTail
            if tail.count >= challenge.utf8CodeUnitCount,
                HTTPToken.equals(
                    buffer, tail.lowerBound..<(tail.lowerBound + challenge.utf8CodeUnitCount), challenge)
            {
                self = .challenge
            } else if let file = site?.folderFile(buffer, tail) {
                self = .file(.folderFile, file)
            } else if let redirect = site?.changePassword, HTTPToken.equals(buffer, tail, Self.changePassword) {
                self = .redirect(redirect)
            } else {
                self = .notFound
            }
        case .other:
            self = site?.fallback.map(Route.fallback) ?? .notFound
        }
    }

    static let challengeTail: StaticString = "acme-challenge/"
    static let changePassword: StaticString = "change-password"
}
