/// What one site folder serves: its prepared files and nothing else, so a site costs little
/// more than its files (the matcher the status page's URL tester needs is compiled on first
/// use, `ServedFileCache` in AASAServer).
public final class SiteContent: Sendable {
    public let name: String
    public let apple: PreparedFile?
    public let android: PreparedFile?
    /// What its other paths answer (`fallback.json`), compiled with its files' matchers.
    package let fallback: SiteFallback?

    package init(name: String, apple: PreparedFile?, android: PreparedFile?, fallback: SiteFallback? = nil) {
        self.name = name
        self.apple = apple
        self.android = android
        self.fallback = fallback
    }

    /// True when the site has a `fallback.json` (`/sites.json`, the status page).
    public var hasFallback: Bool { fallback != nil }

    /// True when both serve the same files (a reload can then keep the old object).
    package func servesSameFiles(as other: SiteContent) -> Bool {
        (apple == nil ? other.apple == nil : apple?.isSameFile(as: other.apple) == true)
            && (android == nil ? other.android == nil : android?.isSameFile(as: other.android) == true)
            && fallback?.bytes == other.fallback?.bytes
    }
}
