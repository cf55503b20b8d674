/// One rule (component or legacy path) of one details entry, compiled for matching.
/// A class so that walking a list of rules per URL moves one reference, not every field.
final class CompiledRule: Sendable {
    enum Query: Sendable {
        case any
        case whole(CompiledPattern)
        /// Each named item must match; an absent item is matched as the empty string.
        case items([(name: [UInt32], pattern: CompiledPattern)])
    }

    let rule: EffectiveRule
    /// The decision this rule gives when it matches, built once (the reason text included),
    /// so deciding a URL formats nothing.
    let decision: MatchDecision
    let decoded: Bool
    let folded: Bool
    let path: CompiledPattern?
    let pathFilter: PathFilter
    let query: Query
    let fragment: CompiledPattern?

    init(_ rule: EffectiveRule, detailsIndex: Int, variables: [String: [String]]) {
        self.rule = rule
        let list =
            switch rule.kind {
            case .component: "components"
            case .legacyPath: "paths"
            case .androidRule: "dynamic_app_link_components"
            }
        let place =
            rule.kind == .androidRule
            ? "statements[\(detailsIndex)].\(list)[\(rule.index)]" : "details[\(detailsIndex)].\(list)[\(rule.index)]"
        decision = MatchDecision(
            appID: "", outcome: rule.exclude ? .exclude : .match, detailsIndex: detailsIndex, ruleIndex: rule.index,
            ruleKind: rule.kind, rule: rule.sourceText,
            reason: rule.exclude
                ? "\(place) matches and excludes the URL "
                    + "(\(rule.kind == .legacyPath ? "a NOT path" : "exclude: true")); it stays on the web"
                : "\(place) is the first rule that matches")
        decoded = !rule.percentEncoded
        folded = !rule.caseSensitive
        let cased = rule.caseSensitive
        let variables: [String: [String]]? = rule.kind == .component ? variables : nil
        func compile(_ text: String?) -> CompiledPattern? {
            guard let text else { return nil }
            let pattern = CompiledPattern(text, caseSensitive: cased, variables: variables)
            return pattern.matchesEverything ? nil : pattern
        }
        path = compile(rule.normalizedPath)
        let form = URLForm(decoded: decoded, folded: folded)
        // The filter summarizes the normalized path, which Android's rules do not use.
        pathFilter =
            rule.kind == .androidRule
            ? PathFilter(form: form) : path.map { PathFilter(pattern: $0, form: form) } ?? PathFilter(form: form)
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

    /// All specified parts must match (docs/association-files.md §2); unspecified ones are `*`.
    func matches(_ url: MatchURL) -> Bool {
        if let path,
            !path.matches((rule.kind == .androidRule ? url.rawPath : url.path).form(decoded: decoded, folded: folded))
        {
            return false
        }
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
                    // Every occurrence of a repeated name must match (observed with Apple's swcutil).
                    if !pattern.matches(item.value.form(decoded: decoded, folded: folded)) { return false }
                }
                if !present && !pattern.matches([]) { return false }
            }
            return true
        }
    }
}
