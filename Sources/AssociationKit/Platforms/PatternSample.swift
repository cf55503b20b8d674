/// A rule's patterns turned into a URL they match, and Apple's patterns as Android can write
/// them (no substitution variables): what `PlatformComparison` compares the two files with.
enum PatternSample {
    /// Text the pattern matches: `*` and `?` as `x`, `$(name)` as one of its values (`en` and
    /// `US` for `lang` and `region`, else the first). `variables` nil takes `$(…)` literally
    /// (legacy paths, Android); nil when a variable has no value.
    static func fill(_ pattern: String, variables: [String: [String]]?) -> String? {
        var out = ""
        for token in PatternSyntax.tokenize(pattern).tokens {
            switch token {
            case .literal(let scalar): out.unicodeScalars.append(scalar)
            case .anyCharacter, .anyRun: out += "x"
            case .variable(let name):
                guard let variables else {
                    out += "$(\(name))"
                    continue
                }
                let values = variables[name] ?? PredefinedVariables.values(of: name) ?? []
                let preferred = ["lang": "en", "region": "US"][name]
                guard let value = values.first(where: { $0 == preferred }) ?? values.first,
                    let filled = fill(value, variables: nil)
                else { return nil }
                out += filled
            }
        }
        return out
    }

    /// A URL on `host` that the rule's path, query and fragment patterns match, or nil when
    /// the filled text is not a URL the rule matches (a literal `#` in a path, say).
    static func url(host: String, rule: EffectiveRule, variables: [String: [String]]) -> MatchURL? {
        let variables = rule.kind == .component ? variables : nil
        var text = "https://" + host
        if let path = rule.path {
            guard let filled = fill(path, variables: variables) else { return nil }
            text += filled.hasPrefix("/") ? filled : "/" + filled
        } else {
            text += "/"
        }
        switch rule.query {
        case .any:
            break
        case .whole(let pattern):
            guard let filled = fill(pattern, variables: variables) else { return nil }
            text += "?" + filled
        case .items(let items):
            var pairs: [String] = []
            for item in items {
                guard let filled = fill(item.pattern.value, variables: variables) else { return nil }
                pairs.append(item.name + "=" + filled)
            }
            if !pairs.isEmpty { text += "?" + pairs.joined(separator: "&") }
        }
        if let fragment = rule.fragment {
            guard let filled = fill(fragment, variables: variables) else { return nil }
            text += "#" + filled
        }
        guard let url = try? MatchURL(text) else { return nil }
        return CompiledRule(rule, detailsIndex: 0, variables: variables ?? [:]).matches(url) ? url : nil
    }

    /// Apple's pattern with each `$(name)` as the wildcard closest to the variable: `?*` when
    /// every value has a character, `*` otherwise. `variables` nil leaves `$(…)` as written.
    static func relaxed(_ pattern: String, variables: [String: [String]]?) -> String {
        var out = ""
        for token in PatternSyntax.tokenize(pattern).tokens {
            switch token {
            case .literal(let scalar): out.unicodeScalars.append(scalar)
            case .anyCharacter: out += "?"
            case .anyRun: if out.last != "*" { out += "*" }  // `**` is `*`
            case .variable(let name):
                guard let variables, let value = relaxedValue(of: name, variables: variables) else {
                    out += "$(\(name))"
                    continue
                }
                out += out.last == "*" && value.hasSuffix("*") ? String(value.dropLast()) : value
            }
        }
        return out
    }

    /// The one wildcard standing for a variable; nil for a variable without values, which
    /// never matches.
    static func relaxedValue(of name: String, variables: [String: [String]]) -> String? {
        let values = variables[name] ?? PredefinedVariables.values(of: name) ?? []
        guard !values.isEmpty else { return nil }
        return values.allSatisfy { $0.contains { $0 != "*" } } ? "?*" : "*"
    }

    /// The file with every variable read as `relaxedValue`: what Apple's rules say once written
    /// in Android's syntax.
    static func relaxedFile(_ file: AssociationFile) -> AssociationFile {
        guard var appLinks = file.appLinks else { return file }
        let variables = appLinks.variablesByName
        let names = Set(variables.keys).union(PredefinedVariables.names).sorted()
        appLinks.substitutionVariables = names.map { name in
            let values = relaxedValue(of: name, variables: variables).map { [Located($0, appLinks.origin)] } ?? []
            return SubstitutionVariable(name: name, values: values, origin: appLinks.origin)
        }
        var relaxed = file
        relaxed.appLinks = appLinks
        return relaxed
    }
}
