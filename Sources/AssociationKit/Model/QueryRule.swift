/// The `?` key of a component.
public enum QueryRule: Sendable {
    /// A pattern for the whole query string after `?`.
    case whole(Located<String>)
    /// Item name → pattern for that item's value; unlisted items are ignored.
    case items([QueryItemRule], Origin)
    /// A dictionary holding a non-string value: Apple ignores the whole dictionary, as if
    /// `?` were not set (observed with Apple's swcutil).
    case ignoredDictionary(Origin)

    public var origin: Origin {
        switch self {
        case .whole(let pattern): pattern.origin
        case .items(_, let origin), .ignoredDictionary(let origin): origin
        }
    }
}

/// One `"name": "pattern"` entry of a query dictionary.
public struct QueryItemRule: Sendable {
    public var name: String
    public var pattern: Located<String>

    public init(name: String, pattern: Located<String>) {
        self.name = name
        self.pattern = pattern
    }
}
