/// A site's `fallback.json`, decoded: what people without the app get for the site's other
/// paths (docs/usage.md, "The link domain for people without the app").
public struct FallbackFile: Sendable {
    public static let fileName = "fallback.json"

    public var web: URLTemplate
    /// Digits only (validated), so it needs no escaping in a page.
    public var appStoreID: String?
    /// An Android application ID (validated): letters, digits, `_` and `.`.
    public var playPackage: String?
    public var preview: FallbackPreview?
    public var rules: [FallbackRule]

    public init(
        web: URLTemplate, appStoreID: String? = nil, playPackage: String? = nil, preview: FallbackPreview? = nil,
        rules: [FallbackRule] = []
    ) {
        self.web = web
        self.appStoreID = appStoreID
        self.playPackage = playPackage
        self.preview = preview
        self.rules = rules
    }
}
