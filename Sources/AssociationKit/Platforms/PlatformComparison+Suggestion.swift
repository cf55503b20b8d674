extension PlatformComparison {
    /// `XPL002` on each statement granting `handle_all_urls` without dynamic rules, when
    /// Apple's file keeps URLs on the web: Android leaves them to the app's manifest.
    static func suggestions(_ site: Site) -> [Diagnostic] {
        let rules = site.appleRules.flatMap { entry in entry.rules.map { (entry.detailsIndex, $0) } }
        let exclusions = rules.filter(\.1.exclude)
        guard !exclusions.isEmpty else { return [] }
        let (components, leftOut) = dynamicRules(rules, variables: site.variables)
        let excluded = exclusions.prefix(5).map(place).joined(separator: ", ")
        let more = exclusions.count > 5 ? " and \(exclusions.count - 5) more" : ""
        var suggestion = "[" + components.joined(separator: ", ") + "]"
        if !leftOut.isEmpty {
            suggestion +=
                " (left out: \(leftOut.map(place).joined(separator: ", ")), whose whole-query pattern Android "
                + "cannot write)"
        }
        // An empty list leaves the paths to the manifest as no list does (docs/association-files.md, "Android's matching").
        return site.statements.filter { $0.dynamicRules?.isEmpty ?? true }.map { statement in
            Diagnostic(
                .noDynamicRules,
                "apple-app-site-association keeps URLs on the web (\(excluded)\(more)), but "
                    + "statements[\(statement.index)] grants \(AssetLinks.handleAllURLs) without dynamic rules, so the app's manifest decides them "
                    + "on Android; Android 15+ follows Apple's rules with, under relation_extensions → "
                    + "\(AssetLinks.handleAllURLs): \"dynamic_app_link_components\": \(suggestion)",
                at: statement.origin.location, pointer: JSONPointer.appending(statement.index, to: ""))
        }
    }

    /// Apple's rules written as Android 15 dynamic rules, in order, each once: a rule Android
    /// cannot write (a whole-query pattern other than `*`) is left out and returned.
    static func dynamicRules(_ rules: [(Int, EffectiveRule)], variables: [String: [String]]) -> (
        components: [String], leftOut: [(Int, EffectiveRule)]
    ) {
        var components: [String] = []
        var leftOut: [(Int, EffectiveRule)] = []
        for (detailsIndex, rule) in rules {
            let variables = rule.kind == .component ? variables : nil
            var members: [String] = []
            if let path = rule.path.map({ android15Safe(PatternSample.relaxed($0, variables: variables)) }), path != "*"
            {
                // Android compares the path as written, which starts with `/`.
                members.append(
                    "\"/\": " + JSONWriter.quoted(path.hasPrefix("/") || path.hasPrefix("*") ? path : "/" + path))
            }
            switch rule.query {
            case .any:
                break
            case .whole(let pattern):
                guard PatternSample.relaxed(pattern, variables: variables) == "*" else {
                    leftOut.append((detailsIndex, rule))
                    continue
                }
            case .items(let items):
                let pairs = items.map {
                    JSONWriter.quoted($0.name) + ": "
                        + JSONWriter.quoted(
                            android15Safe(PatternSample.relaxed($0.pattern.value, variables: variables)))
                }
                if !pairs.isEmpty { members.append("\"?\": {" + pairs.joined(separator: ", ") + "}") }
            }
            if let fragment = rule.fragment.map({ android15Safe(PatternSample.relaxed($0, variables: variables)) }),
                fragment != "*"
            {
                members.append("\"#\": " + JSONWriter.quoted(fragment))
            }
            // A rule needs a pattern: `*` for Apple's rule without one.
            if members.isEmpty { members.append("\"/\": \"*\"") }
            if rule.exclude { members.append("\"exclude\": true") }
            let component = "{" + members.joined(separator: ", ") + "}"
            if !components.contains(component) { components.append(component) }
        }
        return (components, leftOut)
    }

    /// `?*` with text after it as `*`: Android 15's parser makes such a `?*` a greedy glob that
    /// never matches (ADL022), and `*` reads the same on every version, also accepting nothing.
    /// One pass: a `?` is dropped when `*` and at least one more character follow it.
    static func android15Safe(_ pattern: String) -> String {
        let scalars = Array(pattern.unicodeScalars)
        var out = String.UnicodeScalarView()
        for index in scalars.indices
        where !(scalars[index] == "?" && index + 2 < scalars.count && scalars[index + 1] == "*") {
            out.append(scalars[index])
        }
        return String(out)
    }

    /// `details[0].components[1]` (or `paths[1]`).
    static func place(_ rule: (detailsIndex: Int, rule: EffectiveRule)) -> String {
        "details[\(rule.detailsIndex)].\(rule.rule.kind == .legacyPath ? "paths" : "components")[\(rule.rule.index)]"
    }
}
