/// One string of a legacy `paths` array (iOS 9–12): a path pattern, or an exclusion when it
/// starts with `NOT ` (with the space; docs/association-files.md, "1. The Apple file").
public struct LegacyPath: Sendable {
    public static let exclusionPrefix = "NOT "

    public var index: Int
    public var text: String
    public var origin: Origin

    public init(index: Int, text: String, origin: Origin) {
        self.index = index
        self.text = text
        self.origin = origin
    }

    public var isExclusion: Bool { text.hasPrefix(Self.exclusionPrefix) }

    public var pattern: String {
        isExclusion ? String(text.dropFirst(Self.exclusionPrefix.count)) : text
    }
}
