extension FallbackValidator {
    /// `rules`: Apple's component keys (decoded by the association file's own decoder, so the
    /// patterns mean what they mean to the matcher) plus `web` or `"exclude": true`.
    mutating func rules(_ value: JSONValue) -> [FallbackRule] {
        guard let elements = value.arrayValue else {
            report(.fallbackWrongType, "rules must be an array of rule objects, found \(value.typeName)", value)
            return []
        }
        var rules: [FallbackRule] = []
        for (index, element) in elements.enumerated() {
            guard let members = element.members else {
                report(.fallbackWrongType, "each rule must be an object, found \(element.typeName)", element)
                continue
            }
            var component = ComponentRule(
                index: index, sourceText: components.sourceText(of: element), origin: Origin(element))
            var web: URLTemplate?
            var excluded = false
            for member in members {
                let child = member.value
                switch member.key {
                case "/", "#":
                    guard let text = child.stringValue else {
                        report(
                            .fallbackWrongType, "\"\(member.key)\" must be a pattern string, found \(child.typeName)",
                            child)
                        continue
                    }
                    if member.key == "/" {
                        component.path = Located(text, Origin(child))
                    } else {
                        component.fragment = Located(text, Origin(child))
                    }
                case "?": component.query = components.decodeQuery(child)
                case "caseSensitive", "percentEncoded", "exclude":
                    guard let flag = child.boolValue else {
                        report(
                            .fallbackWrongType, "\(member.key) must be true or false, found \(child.typeName)", child)
                        continue
                    }
                    switch member.key {
                    case "caseSensitive": component.caseSensitive = Located(flag, Origin(child))
                    case "percentEncoded": component.percentEncoded = Located(flag, Origin(child))
                    default: excluded = flag
                    }
                case "web": web = template(child, "rules[\(index)].web")
                case "comment": break
                default: unknownKey(member, known: Self.ruleKeys, context: "a rule")
                }
            }
            checkPatterns(component)
            if excluded && element["web"] != nil {
                report(.fallbackWrongType, "a rule has either \"web\" or \"exclude\": true, not both", element)
                continue
            }
            if excluded {
                rules.append(FallbackRule(index: index, component: component, action: .exclude))
            } else if let web {
                rules.append(FallbackRule(index: index, component: component, action: .web(web)))
            } else if element["web"] == nil {
                report(.fallbackWrongType, "a rule needs a \"web\" template or \"exclude\": true", element)
            }
        }
        return rules
    }

    /// What the matcher would never match as written: an unclosed or unknown `$(…)` (a fallback
    /// has no substitutionVariables, only Apple's predefined ones), and text that cannot occur
    /// in the compared form of the URL.
    mutating func checkPatterns(_ component: ComponentRule) {
        let percentEncoded = component.percentEncoded?.value ?? true
        var patterns = [component.path, component.fragment].compactMap { $0 }
        switch component.query {
        case .whole(let pattern)?: patterns.append(pattern)
        case .items(let items, _)?: patterns += items.map(\.pattern)
        default: break
        }
        for pattern in patterns {
            guard let problem = problem(of: pattern.value, percentEncoded: percentEncoded) else { continue }
            diagnostics.append(Diagnostic(.fallbackInvalidPattern, problem, at: pattern.origin))
        }
    }

    func problem(of pattern: String, percentEncoded: Bool) -> String? {
        let utf8 = pattern.utf8
        if utf8.containsVariableReference {
            let syntax = PatternSyntax.tokenize(pattern)
            if syntax.unterminatedVariableAt != nil { return "\"$(\" has no closing \")\"" }
            if let name = syntax.variableNames.first(where: { PredefinedVariables.values(of: $0) == nil }) {
                return "$(\(name)) is not one of Apple's predefined variables; fallback.json has no others"
            }
        }
        if percentEncoded, utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 > 0x7E }) {
            return "spaces or non-ASCII text while percentEncoded is true: the pattern never matches"
        }
        if !percentEncoded, utf8.contains(UInt8(ascii: "%")) {
            return "a percent escape while percentEncoded is false: the URL is decoded first, so it never matches"
        }
        return nil
    }
}
