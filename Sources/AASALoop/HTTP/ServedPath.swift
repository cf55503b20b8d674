/// The paths of the files the server answers; every other path is 404, never a redirect.
enum ServedPath {
    case appleWellKnown, appleRoot, androidWellKnown, webauthnWellKnown, passkeyEndpointsWellKnown

    /// The path, as requested and as labelled in metrics.
    var path: StaticString {
        switch self {
        case .appleWellKnown: "/.well-known/apple-app-site-association"
        case .appleRoot: "/apple-app-site-association"
        case .androidWellKnown: "/.well-known/assetlinks.json"
        case .webauthnWellKnown: "/.well-known/webauthn"
        case .passkeyEndpointsWellKnown: "/.well-known/passkey-endpoints"
        }
    }

    /// Formatted at each call: the request path reads `RequestCounts.pathLabels`, made once.
    var label: String { path.description }

    /// The path of an origin-form target, before any query (which is ignored).
    init?(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        let end = HTTPRequestParser.first(UInt8(ascii: "?"), in: buffer, range) ?? range.upperBound
        let path = range.lowerBound..<end
        if HTTPToken.equals(buffer, path, Self.appleWellKnown.path) {
            self = .appleWellKnown
        } else if HTTPToken.equals(buffer, path, Self.appleRoot.path) {
            self = .appleRoot
        } else if HTTPToken.equals(buffer, path, Self.androidWellKnown.path) {
            self = .androidWellKnown
        } else if HTTPToken.equals(buffer, path, Self.webauthnWellKnown.path) {
            self = .webauthnWellKnown
        } else if HTTPToken.equals(buffer, path, Self.passkeyEndpointsWellKnown.path) {
            self = .passkeyEndpointsWellKnown
        } else {
            return nil
        }
    }
}
