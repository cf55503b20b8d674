/// One rule (component or legacy path) of one details entry, compiled for matching.
struct CompiledRule: Sendable {
    enum Query: Sendable {
        case any
        case whole(CompiledPattern)
        /// Each named item must match; an absent item is matched as the empty string.
        case items([(name: [UInt32], pattern: CompiledPattern)])
    }

    let rule: EffectiveRule
    let path: CompiledPattern?
    let query: Query
    let fragment: CompiledPattern?

    init(_ rule: EffectiveRule, variables: [String: [String]]) {
        self.rule = rule
        let cased = rule.caseSensitive
        let variables: [String: [String]]? = rule.kind == .component ? variables : nil
        func compile(_ text: String?) -> CompiledPattern? {
            guard let text else { return nil }
            let pattern = CompiledPattern(text, caseSensitive: cased, variables: variables)
            return pattern.matchesEverything ? nil : pattern
        }
        path = compile(rule.normalizedPath)
        fragment = compile(rule.fragment)
        switch rule.query {
        case .any:
            query = .any
        case .whole(let text):
            query = compile(text).map(Query.whole) ?? .any
        case .items(let items):
            let compiled = items.compactMap { item -> (name: [UInt32], pattern: CompiledPattern)? in
                guard let pattern = compile(item.pattern.value) else { return nil }
                let name = item.name.unicodeScalars.map(\.value)
                return (cased ? name : CaseFolding.fold(name), pattern)
            }
            query = compiled.isEmpty ? .any : .items(compiled)
        }
    }

    /// All specified parts must match (A-COMP); unspecified ones are `*`.
    func matches(_ url: MatchURL) -> Bool {
        let decoded = !rule.percentEncoded
        let folded = !rule.caseSensitive
        if let path, !path.matches(url.path.form(decoded: decoded, folded: folded)) { return false }
        if let fragment, !fragment.matches(url.fragment.form(decoded: decoded, folded: folded)) { return false }
        switch query {
        case .any:
            return true
        case .whole(let pattern):
            return pattern.matches(url.query.form(decoded: decoded, folded: folded))
        case .items(let items):
            for (name, pattern) in items {
                var present = false
                for item in url.queryItems where item.name.form(decoded: decoded, folded: folded) == name {
                    present = true
                    // Every occurrence of a repeated name must match (OBSERVED, spec §2.2).
                    if !pattern.matches(item.value.form(decoded: decoded, folded: folded)) { return false }
                }
                if !present && !pattern.matches([]) { return false }
            }
            return true
        }
    }
}
