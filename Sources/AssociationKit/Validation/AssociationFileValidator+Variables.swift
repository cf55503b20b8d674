extension AssociationFileValidator {
    /// Names may hold any character but `$`, `(` and `)`; values may hold `*` and `?` but no
    /// other variable (docs/association-files.md §2, Substitution variables).
    mutating func checkVariables(_ appLinks: AppLinks) {
        checkDomainDefaults(appLinks)
        let used = usedVariableNames(appLinks)
        for variable in appLinks.substitutionVariables {
            let name = variable.name
            if name.isEmpty || name.contains(where: { "$()".contains($0) }) {
                report(
                    .invalidVariableName, "variable name \"\(name)\" must be non-empty and may not contain $, ( or )",
                    at: variable.origin)
            }
            if PredefinedVariables.names.contains(name) {
                report(
                    .variableShadowsPredefined,
                    "\"\(name)\" is a predefined variable; this list replaces it in every pattern of this file, which "
                        + "is easy to misread. Pick another name",
                    at: variable.origin)
            }
            if variable.values.isEmpty {
                report(
                    .emptyVariable, "$(\(name)) has no values, so every pattern using it never matches",
                    at: variable.origin)
            }
            for value in variable.values where value.value.utf8.containsVariableReference {
                report(
                    .variableValueReferencesVariable,
                    "a variable value may not refer to another variable; list the values it should expand to",
                    at: value.origin)
            }
            if !used.contains(name) {
                report(.unusedVariable, "$(\(name)) is defined but no pattern uses it", at: variable.origin)
            }
        }
    }

    func usedVariableNames(_ appLinks: AppLinks) -> Set<String> {
        guard !appLinks.substitutionVariables.isEmpty else { return [] }
        var names: Set<String> = []
        func collect(_ rule: ComponentRule?) {
            guard let rule else { return }
            var texts = [rule.path?.value, rule.fragment?.value].compactMap { $0 }
            switch rule.query {
            case .whole(let pattern)?: texts.append(pattern.value)
            case .items(let items, _)?: texts += items.map(\.pattern.value)
            default: break
            }
            for text in texts where text.utf8.containsVariableReference {
                names.formUnion(PatternSyntax.tokenize(text).variableNames)
            }
        }
        collect(appLinks.defaults)
        for detail in appLinks.details {
            collect(detail.defaults)
            for component in detail.components ?? [] { collect(component) }
        }
        return names
    }
}
