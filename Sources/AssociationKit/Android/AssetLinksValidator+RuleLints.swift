extension AssetLinksValidator {
    /// Where a dynamic rule means one thing to its author and another to Android
    /// (docs/association-files.md, "Android's matching"): each warning gives the rule rewritten.
    mutating func lint(_ rule: DynamicAppLinkRule, _ element: JSONValue) {
        let query = element["?"]?.members ?? []
        guard rule.path != nil || rule.fragment != nil || !query.isEmpty else {
            let rewritten = rule.exclude ? #"{"/": "*", "exclude": true}"# : #"{"/": "*"}"#
            report(
                .ruleNeverMatches,
                "a rule with no \"/\", \"?\" item or \"#\" never matches on Android (a filter group without "
                    + "filters matches nothing)\(rule.exclude ? ", so it excludes nothing" : ""); for every URL write "
                    + rewritten,
                at: element)
            return
        }
        for key in ["/", "#"] {
            guard let value = element[key], let text = value.stringValue else { continue }
            lintPattern(text, value, part: key, rule: rule, element: element)
        }
        for item in query {
            guard let text = item.value.stringValue else { continue }
            lintPattern(text, item.value, part: item.key, rule: rule, element: element, isItem: true)
        }
    }

    private mutating func lintPattern(
        _ text: String, _ value: JSONValue, part: String, rule: DynamicAppLinkRule, element: JSONValue,
        isItem: Bool = false
    ) {
        let units = Array(text.utf16)
        let what = isItem ? "the \"?\" item \"\(part)\"" : "\"\(part)\""
        if text.isEmpty && !isItem {
            report(
                .ruleNeverMatches,
                "an empty \(what) pattern: StatementService's parser refuses it, so this rule never matches on "
                    + "Android; write \(rewrite(element, value, part == "/" ? "/" : "*")) (\"*\" for every "
                    + (part == "/" ? "path)" : "fragment)"),
                at: value)
            return
        }
        let decoded = String(
            decoding: Self.utf8(PercentDecoding.decode(text.unicodeScalars.map(\.value))), as: UTF8.self)
        if decoded != text {
            report(
                .encodedRulePattern,
                "\(what) is percent-encoded, but Android compares the decoded URL part (Uri.getPath, getQuery, "
                    + "getFragment), so the escapes never match as written; write \(rewrite(element, value, decoded))",
                at: value)
        }
        if !rule.exclude && text == "*" && (isItem || part == "#") {
            let absent = isItem ? "the parameter \"\(part)\"" : "a fragment"
            report(
                .wildcardRequiresPart,
                "\(what): \"*\" on Android matches only URLs that have \(absent); a URL without it does not "
                    + "match. If it may be absent, leave it out: \(without(element, item: isItem ? part : nil))",
                at: value)
        }
        if let star = Self.starStoppingEarly(units, isPath: part == "/" && !isItem) {
            let stop = String(decoding: [units[star + 1]], as: UTF16.self)
            var deeper = units
            deeper.replaceSubrange(star...star, with: [AndroidPattern.star] + [units[star + 1], AndroidPattern.star])
            let leading =
                star == 0 && stop == "/" && part == "/" && !isItem
                ? "; a path starts with \"/\", so here \"*\" matches nothing and the rule covers only paths "
                    + "starting with \"\(String(decoding: units.dropFirst(), as: UTF16.self).prefix { $0 != "*" })\""
                : ""
            report(
                .starStopsEarly,
                "on Android \"*\" followed by \"\(stop)\" stops at the first \"\(stop)\" of the URL (PatternMatcher's "
                    + "glob never backtracks), so a URL with more \"\(stop)\" where \"*\" stands does not match"
                    + leading + "; add a rule per depth, such as "
                    + rewrite(element, value, String(decoding: deeper, as: UTF16.self)),
                at: value)
        }
        lintAndroid15(units, value, what: what, element: element, isItem: isItem, part: part)
    }

    /// Where Android 15's StatementService parser reads the expression differently from the
    /// newest (`DalExpressionParser`).
    private mutating func lintAndroid15(
        _ units: [UInt16], _ value: JSONValue, what: String, element: JSONValue, isItem: Bool, part: String
    ) {
        let question: UInt16 = 0x3F
        if let index = units.indices.dropLast().first(where: {
            units[$0] == question && units[$0 + 1] == AndroidPattern.star
        }), index + 2 < units.count {
            var relaxed = units
            relaxed.remove(at: index)
            report(
                .android15Differs,
                "\(what): Android 15's parser makes \"?*\" a greedy advanced glob that also takes the text after "
                    + "it, so there this rule never matches (the newest parser matches it); "
                    + rewrite(element, value, String(decoding: relaxed, as: UTF16.self))
                    + " matches on both (\"*\" also accepts nothing)",
                at: value)
            return
        }
        let expression = isItem ? Array((part + "=").utf16) + units : units
        let newest = DalExpressionParser.parse(String(decoding: expression, as: UTF16.self), .newest)
        guard units.contains(AndroidPattern.dot), newest.kind == .literal || newest.kind == .prefix else { return }
        let dotted = units.map { $0 == AndroidPattern.dot ? question : $0 }
        report(
            .android15Differs,
            "\(what): Android 15's parsers read \".\" here differently (the first never matches this pattern, "
                + "a later one lets \".\" match any character); "
                + rewrite(element, value, String(decoding: dotted, as: UTF16.self))
                + " matches alike on every version (\"?\" is any one character)",
            at: value)
    }

    /// The first `*` followed by a character that recurs later in the pattern: PatternMatcher's
    /// `.*` stops at that character's first occurrence in the URL. In a path a `*` before `/`
    /// reads as one segment, which is what it matches, so only a leading `*/` is reported: a
    /// path starts with `/`, so there `*` matches nothing (`*/terms/*` is `/terms/*`).
    static func starStoppingEarly(_ units: [UInt16], isPath: Bool) -> Int? {
        let question: UInt16 = 0x3F
        let slash: UInt16 = 0x2F
        // Each character's last position, so a long hostile pattern costs one pass.
        var last: [UInt16: Int] = [:]
        for (index, unit) in units.enumerated() { last[unit] = index }
        for index in units.indices.dropLast() where units[index] == AndroidPattern.star {
            let next = units[index + 1]
            guard next != AndroidPattern.star, next != question else { continue }
            if isPath && next == slash && index > 0 { continue }
            if let position = last[next], position > index + 1 { return index }
        }
        return nil
    }

    static func utf8(_ scalars: [UInt32]) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in scalars {
            guard let unicode = Unicode.Scalar(scalar) else { continue }
            bytes += Array(String(Character(unicode)).utf8)
        }
        return bytes
    }

    /// The rule's text with `value` replaced by the string `replacement`, on one line.
    func rewrite(_ element: JSONValue, _ value: JSONValue, _ replacement: String) -> String {
        let range = element.range.clamped(to: 0..<bytes.count)
        let inner = value.range.clamped(to: range)
        let text =
            String(decoding: bytes[range.lowerBound..<inner.lowerBound], as: UTF8.self)
            + JSONWriter.quoted(replacement)
            + String(decoding: bytes[inner.upperBound..<range.upperBound], as: UTF8.self)
        return Self.oneLine(text)
    }

    /// The rule without its `#` (item nil) or without one `?` item.
    func without(_ element: JSONValue, item: String?) -> String {
        let members = (element.members ?? []).compactMap { member -> String? in
            if item == nil && member.key == "#" { return nil }
            if let item, member.key == "?" {
                let kept = (member.value.members ?? []).filter { $0.key != item }
                if kept.isEmpty { return nil }
                let items = kept.map { "\(JSONWriter.quoted($0.key)): \($0.value.canonical)" }
                return "\"?\": {" + items.joined(separator: ", ") + "}"
            }
            return "\(JSONWriter.quoted(member.key)): \(member.value.canonical)"
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces }.joined(separator: " ")
    }
}
