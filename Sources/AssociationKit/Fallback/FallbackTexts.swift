/// One `strings` entry of `fallback.json`: the page's texts in one language, each replacing the
/// default when set (docs/fallback.md, "Link pages a shop would ship").
public struct FallbackTexts: Sendable, Equatable {
    /// The text keys an entry may set.
    public static let keys = ["title", "description", "store", "web"]

    /// A well-formed language tag (BCP 47), as written in the file.
    public var language: String
    /// The heading (and the document's title).
    public var title: String?
    public var description: String?
    /// The store button's label.
    public var store: String?
    /// The web button's label.
    public var web: String?

    public init(
        language: String, title: String? = nil, description: String? = nil, store: String? = nil, web: String? = nil
    ) {
        self.language = language
        self.title = title
        self.description = description
        self.store = store
        self.web = web
    }
}
