extension AssociationFileValidator {
    /// Rules are tried in order and the first match wins (docs/association-files.md §2), so a rule that
    /// an earlier one covers never decides anything; an exclusion there never excludes
    /// (observed with Apple's `swcutil`: `/a/*` then exclude `/a/private/*` lets `/a/private/x` match).
    ///
    /// Earlier rules are indexed by path so each rule is compared only with the few that could
    /// cover it (same path, a literal prefix of it followed by `*`, or any path); a file of
    /// thousands of rules stays linear instead of comparing every pair.
    mutating func checkReachability(_ rules: [EffectiveRule]) {
        guard rules.count > 1 else { return }
        // Short lists, the usual case, are cheaper to compare pairwise than to index.
        if rules.count <= 16 {
            for later in 1..<rules.count {
                if let earlier = (0..<later).first(where: { PatternCoverage.covers(rules[$0], rules[later]) }) {
                    reportShadowed(rules[later], by: rules[earlier], at: earlier)
                }
            }
            return
        }
        var anyPath: [Int] = []
        var byPath: [String: [Int]] = [:]
        var byPrefix: [String: [Int]] = [:]
        var prefixLengths: Set<Int> = []
        for later in rules.indices {
            let key = PatternCoverage.pathKey(rules[later])
            var candidates = anyPath
            if let key {
                candidates += byPath[key] ?? []
                // Only the lengths of prefixes some earlier `P*` rule has need looking up.
                let utf8 = key.utf8
                for length in prefixLengths where length <= utf8.count {
                    let prefix = String(decoding: utf8.prefix(length), as: UTF8.self)
                    candidates += byPrefix[prefix] ?? []
                }
            }
            if let earlier = candidates.sorted().first(where: { PatternCoverage.covers(rules[$0], rules[later]) }) {
                reportShadowed(rules[later], by: rules[earlier], at: earlier)
            }
            guard let key else {
                anyPath.append(later)
                continue
            }
            byPath[key, default: []].append(later)
            if key.utf8.last == UInt8(ascii: "*") {
                let prefix = String(key.dropLast())
                byPrefix[prefix, default: []].append(later)
                prefixLengths.insert(prefix.utf8.count)
            }
        }
    }

    mutating func reportShadowed(_ rule: EffectiveRule, by earlier: EffectiveRule, at index: Int) {
        let name = rule.kind == .component ? "components" : "paths"
        let shadow = "\(name)[\(index)] \(earlier.sourceText.compacted) already matches every URL this rule would"
        if rule.exclude && !earlier.exclude {
            report(
                .unreachableExclusion,
                "this exclusion never applies: \(shadow), and the first match wins. Move it before \(name)[\(index)]",
                at: rule.origin)
        } else {
            report(
                .unreachableComponent, "this rule is never reached: \(shadow). Remove it or move it earlier",
                at: rule.origin)
        }
    }
}
