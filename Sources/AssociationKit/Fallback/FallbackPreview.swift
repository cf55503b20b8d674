/// The link card a preview crawler gets (Open Graph, The Open Graph protocol, ogp.me).
public struct FallbackPreview: Sendable, Equatable {
    public var title: String
    public var description: String?
    /// An absolute http(s) URL.
    public var image: String?

    public init(title: String, description: String? = nil, image: String? = nil) {
        self.title = title
        self.description = description
        self.image = image
    }
}
