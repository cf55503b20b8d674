/// One difference in meaning between two versions of an association file: what was added,
/// removed, changed or moved, where, shown as written. Formatting, key order and whitespace
/// are never a change.
public struct MeaningChange: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case added, removed, changed, moved
    }

    /// What the change belongs to: `applinks`, `applinks ABCDE12345.com.example.app`,
    /// `webcredentials`, `android com.example.app` …
    public var scope: String
    public var kind: Kind
    /// What changed: `app`, `rule`, `defaults`, `variable food`, `relation`, `fingerprint` …
    public var subject: String
    /// Before and after, as written (with the place in the file for rules); nil when absent.
    public var old: String?
    public var new: String?

    public init(_ scope: String, _ kind: Kind, _ subject: String, old: String? = nil, new: String? = nil) {
        self.scope = scope
        self.kind = kind
        self.subject = subject
        self.old = old
        self.new = new
    }
}
