/// A component of `applinks.details[].components`, or a `defaults` object, which Apple
/// documents as "a subclass of components" and which may set any of the same keys.
/// Every field is optional: an unset field inherits from the level above, then Apple's
/// built-in default (`*` for patterns, `exclude` false, both flags true).
public struct ComponentRule: Sendable {
    public var index: Int
    public var path: Located<String>?
    public var query: QueryRule?
    public var fragment: Located<String>?
    public var exclude: Located<Bool>?
    public var caseSensitive: Located<Bool>?
    public var percentEncoded: Located<Bool>?
    public var comment: String?
    /// The component as written in the file, for showing the deciding rule.
    public var sourceText: String
    public var origin: Origin

    public init(index: Int, sourceText: String, origin: Origin) {
        self.index = index
        self.sourceText = sourceText
        self.origin = origin
    }

    /// True when the object sets no pattern and no flag (`{}`, or only unknown keys or a
    /// comment): Apple then matches every URL (observed with Apple's swcutil).
    public var isEmpty: Bool {
        path == nil && query == nil && fragment == nil && exclude == nil && caseSensitive == nil
            && percentEncoded == nil
    }
}
