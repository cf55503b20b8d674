import AASASites

/// What one site folder serves: its prepared files and nothing else, so a site costs little
/// more than its files (the matcher the status page's URL tester needs is compiled on first
/// use, `ServedFileCache` in AASAServer).
public final class SiteContent: Sendable {
    public let name: String
    public let apple: PreparedFile?
    public let android: PreparedFile?
    /// The passkey files (docs/association-files.md, "Passkeys").
    public let webauthn: PreparedFile?
    public let passkeyEndpoints: PreparedFile?
    /// What its other paths answer (`fallback.json`), compiled with its files' matchers.
    package let fallback: SiteFallback?

    package init(
        name: String, apple: PreparedFile?, android: PreparedFile?, fallback: SiteFallback? = nil,
        webauthn: PreparedFile? = nil, passkeyEndpoints: PreparedFile? = nil
    ) {
        self.name = name
        self.apple = apple
        self.android = android
        self.fallback = fallback
        self.webauthn = webauthn
        self.passkeyEndpoints = passkeyEndpoints
    }

    /// The served file of `kind`; nil for the kinds never served (expectations, fallback).
    public func file(_ kind: FileCheck.Kind) -> PreparedFile? {
        switch kind {
        case .apple: apple
        case .android: android
        case .webauthn: webauthn
        case .passkeyEndpoints: passkeyEndpoints
        case .expectations, .fallback: nil
        }
    }

    /// True when the site has a `fallback.json` (`/sites.json`, the status page).
    public var hasFallback: Bool { fallback != nil }

    /// True when both serve the same files (a reload can then keep the old object).
    package func servesSameFiles(as other: SiteContent) -> Bool {
        FileCheck.Kind.served.allSatisfy { kind in
            file(kind).map { $0.isSameFile(as: other.file(kind)) } ?? (other.file(kind) == nil)
        } && fallback?.bytes == other.fallback?.bytes
    }
}
