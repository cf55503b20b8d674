/// A site's `fallback.json`, decoded: what people without the app get for the site's other
/// paths (docs/fallback.md, "The link domain for people without the app").
public struct FallbackFile: Sendable {
    public static let fileName = "fallback.json"

    public var web: URLTemplate
    /// Digits only (validated), so it needs no escaping in a page.
    public var appStoreID: String?
    /// An Android application ID (validated): letters, digits, `_` and `.`.
    public var playPackage: String?
    public var preview: FallbackPreview?
    public var rules: [FallbackRule]
    /// The app's icon: an https URL with a fixed host (validated), shown when `preview` has no image.
    public var icon: String?
    public var accentColor: AccentColor?
    /// The pages' texts per language, in file order (docs/fallback.md, "Link pages a shop would ship").
    public var strings: [FallbackTexts]

    public init(
        web: URLTemplate, appStoreID: String? = nil, playPackage: String? = nil, preview: FallbackPreview? = nil,
        rules: [FallbackRule] = [], icon: String? = nil, accentColor: AccentColor? = nil, strings: [FallbackTexts] = []
    ) {
        self.web = web
        self.appStoreID = appStoreID
        self.playPackage = playPackage
        self.preview = preview
        self.rules = rules
        self.icon = icon
        self.accentColor = accentColor
        self.strings = strings
    }
}
