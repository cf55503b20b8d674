/// A custom entry of `applinks.substitutionVariables`: `$(name)` stands for any one of
/// `values` (docs/association-files.md §2, Substitution variables).
public struct SubstitutionVariable: Sendable {
    public var name: String
    public var values: [Located<String>]
    public var origin: Origin

    public init(name: String, values: [Located<String>], origin: Origin) {
        self.name = name
        self.values = values
        self.origin = origin
    }
}
