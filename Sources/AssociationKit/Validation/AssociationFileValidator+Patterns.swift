extension AssociationFileValidator {
    /// Checks the pattern text of one entry's components (or legacy paths) and of the
    /// defaults that apply to them.
    mutating func checkPatterns(
        of detail: AppLinksDetail, rules: [EffectiveRule], appLinks: AppLinks, defined: Set<String>
    ) {
        if let components = detail.components {
            for (component, rule) in zip(components, rules) {
                if component.isEmpty {
                    report(
                        .componentMatchesEverything,
                        "this component sets no pattern, so it matches every URL; add \"/\", \"?\" or \"#\"",
                        at: component.origin)
                }
                checkOwnPatterns(of: component, percentEncoded: rule.percentEncoded, defined: defined)
                if rule.exclude, case .items(let items) = rule.query {
                    for item in items where item.pattern.value == "*" {
                        report(
                            .exclusionMatchesAbsentItem,
                            "this exclusion's query item \"\(item.name)\" is \"*\", which also matches URLs without "
                                + "\(item.name) (an absent item counts as empty), so it excludes more than it seems; "
                                + "use \"?*\" to require the item",
                            at: item.pattern.origin)
                    }
                }
            }
        } else if let paths = detail.paths {
            for path in paths { checkLegacyPath(path) }
        }
        if let defaults = detail.defaults {
            checkOwnPatterns(
                of: defaults,
                percentEncoded: defaults.percentEncoded?.value ?? appLinks.defaults?.percentEncoded?.value ?? true,
                defined: defined)
        }
    }

    mutating func checkDomainDefaults(_ appLinks: AppLinks) {
        guard let defaults = appLinks.defaults else { return }
        let defined = Set(appLinks.substitutionVariables.map(\.name) + PredefinedVariables.names)
        checkOwnPatterns(of: defaults, percentEncoded: defaults.percentEncoded?.value ?? true, defined: defined)
    }

    mutating func checkOwnPatterns(of rule: ComponentRule, percentEncoded: Bool, defined: Set<String>) {
        if let path = rule.path {
            checkPatternText(path, percentEncoded: percentEncoded, defined: defined)
            checkSeparators(inPath: path)
        }
        if let fragment = rule.fragment {
            checkPatternText(fragment, percentEncoded: percentEncoded, defined: defined)
            if fragment.value.hasPrefix("#") && fragment.value.count > 1 {
                report(
                    .patternStartsWithSeparator,
                    "the fragment pattern starts with \"#\", which is then part of the fragment; write the fragment "
                        + "without \"#\"",
                    at: fragment.origin)
            }
        }
        switch rule.query {
        case .whole(let pattern)?:
            checkPatternText(pattern, percentEncoded: percentEncoded, defined: defined)
            let text = pattern.value
            if text.hasPrefix("?") && text.contains("=") && !text.hasPrefix("?*") {
                report(
                    .patternStartsWithSeparator,
                    "the query pattern starts with \"?\", a one-character wildcard, not the separator; write the "
                        + "query without \"?\"",
                    at: pattern.origin)
            }
        case .items(let items, _)?:
            for item in items { checkPatternText(item.pattern, percentEncoded: percentEncoded, defined: defined) }
        case .ignoredDictionary?, nil:
            break
        }
    }

    /// Variable references, and characters that can never match under the encoding setting.
    mutating func checkPatternText(_ pattern: Located<String>, percentEncoded: Bool, defined: Set<String>) {
        let utf8 = pattern.value.utf8
        if utf8.containsVariableReference {
            let syntax = PatternSyntax.tokenize(pattern.value)
            if syntax.unterminatedVariableAt != nil {
                report(
                    .unterminatedVariable, "\"$(\" has no closing \")\", so it is compared as literal text",
                    at: pattern.origin)
            }
            var seen: Set<String> = []
            for name in syntax.variableNames where !defined.contains(name) && seen.insert(name).inserted {
                var message =
                    "$(\(name)) is not defined in substitutionVariables nor predefined, so this pattern never matches"
                undefinedVariablesReported += 1
                if undefinedVariablesReported <= OmittedDiagnostics.limit,
                    let suggestion = Spelling.closest(to: name, among: Array(defined))
                {
                    message += ". Did you mean $(\(suggestion))?"
                }
                report(.undefinedVariable, message, at: pattern.origin)
            }
            checkMatchingCost(pattern, syntax)
        }
        if percentEncoded, utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 > 0x7E }) {
            report(
                .unencodedPattern,
                "the pattern has spaces or non-ASCII text, but URLs are compared percent-encoded (percentEncoded is "
                    + "true), so it never matches; set \"percentEncoded\": false or write the text percent-encoded",
                at: pattern.origin)
        }
        if !percentEncoded && containsPercentEscape(pattern.value) {
            report(
                .encodedPatternDecoded,
                "percentEncoded is false, so the URL is decoded before comparison and a percent escape in the pattern "
                    + "never matches; write the decoded text",
                at: pattern.origin)
        }
    }

    /// The matcher's cost bound for this pattern (`PatternEngine`): one per step plus, per
    /// variable use, its values' `AlternativeSet.cost`.
    mutating func checkMatchingCost(_ pattern: Located<String>, _ syntax: PatternSyntax.Result) {
        var cost = 0
        var uses = 0
        for token in syntax.tokens {
            guard case .variable(let name) = token else {
                cost += 1
                continue
            }
            uses += 1
            if variableCosts[name] == nil {
                variableCosts[name] = PredefinedVariables.values(of: name).map(AlternativeSet.cost(of:)) ?? 0
            }
            cost += variableCosts[name] ?? 0
        }
        if cost > Self.expensivePatternCost {
            report(
                .expensivePattern,
                "matching this pattern costs about \(cost) steps per 64 characters of URL (\(uses) variable uses); "
                    + "WWDC20 warns that complex patterns slow matching on devices. Use fewer variables or fewer "
                    + "wildcard values",
                at: pattern.origin)
        }
    }

    mutating func checkSeparators(inPath path: Located<String>) {
        let utf8 = path.value.utf8
        if utf8.contains(UInt8(ascii: "#")) {
            report(
                .separatorInPathPattern,
                "\"#\" in a path pattern is compared literally, not as the fragment; put the fragment under \"#\"",
                at: path.origin)
        } else if let question = utf8.firstIndex(of: UInt8(ascii: "?")), utf8[question...].contains(UInt8(ascii: "=")) {
            report(
                .separatorInPathPattern,
                "\"?\" in a path pattern is a one-character wildcard, not the query separator; put the query under "
                    + "\"?\"",
                at: path.origin)
        }
    }

    mutating func checkLegacyPath(_ path: LegacyPath) {
        let text = path.text
        if !path.isExclusion && (text.hasPrefix("NOT") || text.lowercased().hasPrefix("not ")) {
            report(
                .malformedNotPrefix,
                "\"\(text)\" looks like an exclusion, but only the exact prefix \"NOT \" (capitals and one space) "
                    + "excludes; as written it is a path pattern",
                at: path.origin)
        }
        checkSeparators(inPath: Located(path.pattern, path.origin))
        if path.pattern.utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 > 0x7E }) {
            report(
                .unencodedPattern,
                "legacy paths are compared percent-encoded, so spaces or non-ASCII text never match; write them "
                    + "percent-encoded",
                at: path.origin)
        }
    }

    func containsPercentEscape(_ text: String) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in text.utf8 {
            if previous.0 == UInt8(ascii: "%") && isHexDigit(previous.1) && isHexDigit(byte) { return true }
            previous = (previous.1, byte)
        }
        return false
    }

    func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}

extension String.UTF8View {
    /// Whether the text holds `$(`, the start of a substitution variable; most patterns do
    /// not, and then need no tokenizing.
    var containsVariableReference: Bool {
        var previous: UInt8 = 0
        for byte in self {
            if previous == UInt8(ascii: "$") && byte == UInt8(ascii: "(") { return true }
            previous = byte
        }
        return false
    }
}
