import AssociationKit

/// What a request to a site gets, decided before any response is written: the routing step
/// of docs/ARCHITECTURE.md ("The path of a request"). The association-file paths and ACME
/// challenges come first and are never answered by a fallback.
enum Route {
    /// One of the association-file paths; nil `file` when the site has no such file (404).
    case file(ServedPath, PreparedFile?)
    /// `/.well-known/acme-challenge/…`: HTTP-01, else 404.
    case challenge
    /// Any other path of a site with a `fallback.json`.
    case fallback(SiteFallback)
    /// Any other path of a site without one.
    case notFound

    /// The route of the path `range` of `buffer` (origin-form, any query included). Inlined:
    /// on the association-file path the enum's payload then never leaves registers.
    @inline(__always)
    init(_ buffer: UnsafeBufferPointer<UInt8>, path range: Range<Int>, site: SiteContent?) {
        if let served = ServedPath(buffer, range) {
            let file =
                switch served {
                case .appleWellKnown, .appleRoot: site?.apple
                case .androidWellKnown: site?.android
                case .webauthnWellKnown: site?.webauthn
                case .passkeyEndpointsWellKnown: site?.passkeyEndpoints
                }
            self = .file(served, file)
            return
        }
        let prefix = Self.challengePrefix
        if range.count >= prefix.utf8CodeUnitCount,
            HTTPToken.equals(buffer, range.lowerBound..<(range.lowerBound + prefix.utf8CodeUnitCount), prefix)
        {
            self = .challenge
            return
        }
        self = site?.fallback.map(Route.fallback) ?? .notFound
    }

    static let challengePrefix: StaticString = "/.well-known/acme-challenge/"
}
