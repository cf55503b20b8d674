/// Decides, conservatively, whether one rule matches every URL another would: then the
/// later rule is unreachable (first match wins; docs/association-files.md, "2. Components"). "Conservatively" means a `true` is
/// always right; shapes it cannot prove (for example two different wildcards) give `false`.
enum PatternCoverage {
    static func covers(_ earlier: EffectiveRule, _ later: EffectiveRule) -> Bool {
        let sameFlags = earlier.caseSensitive == later.caseSensitive && earlier.percentEncoded == later.percentEncoded
        return textCovers(
            earlier.normalizedPath, later.normalizedPath ?? "/*",
            caseSensitive: earlier.caseSensitive, sameFlags: sameFlags)
            && queryCovers(earlier.query, later.query, caseSensitive: earlier.caseSensitive, sameFlags: sameFlags)
            && textCovers(
                earlier.fragment, later.fragment ?? "*", caseSensitive: earlier.caseSensitive, sameFlags: sameFlags)
    }

    /// `nil` or a pattern that is only `*` (after a leading `/` for paths) matches anything;
    /// otherwise equal patterns, or `P*` against a pattern starting with the literal `P`.
    static func textCovers(_ earlier: String?, _ later: String, caseSensitive: Bool, sameFlags: Bool) -> Bool {
        guard let earlier, earlier != "*", earlier != "/*" else { return true }
        guard sameFlags else { return false }
        let a = earlier.utf8
        let b = later.utf8
        if a.count == b.count && equal(a, b, caseSensitive: caseSensitive) { return true }
        guard a.last == UInt8(ascii: "*") else { return false }
        let prefix = a.dropLast()
        guard !prefix.contains(UInt8(ascii: "*")), !prefix.contains(UInt8(ascii: "?")), !a.containsVariableReference,
            b.count >= prefix.count
        else { return false }
        return equal(prefix, b.prefix(prefix.count), caseSensitive: caseSensitive)
    }

    /// Byte equality, folding ASCII letters when case-insensitive (other text compared as is,
    /// which can only miss a coverage, never claim a wrong one).
    static func equal<A: Collection, B: Collection>(_ a: A, _ b: B, caseSensitive: Bool) -> Bool
    where A.Element == UInt8, B.Element == UInt8 {
        guard caseSensitive else {
            return a.elementsEqual(b) { fold($0) == fold($1) }
        }
        return a.elementsEqual(b)
    }

    static func fold(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// The text under which a rule's path is indexed for finding candidate covering rules:
    /// the normalized path, folded when the rule is case-insensitive.
    static func pathKey(_ rule: EffectiveRule) -> String? {
        guard let path = rule.normalizedPath, path != "/*" else { return nil }
        return rule.caseSensitive ? path : path.lowercased()
    }

    static func queryCovers(
        _ earlier: EffectiveRule.Query, _ later: EffectiveRule.Query, caseSensitive: Bool, sameFlags: Bool
    ) -> Bool {
        switch (earlier, later) {
        case (.any, _):
            return true
        case (.whole(let a), .whole(let b)):
            return textCovers(a, b, caseSensitive: caseSensitive, sameFlags: sameFlags)
        case (.whole(let a), _):
            return a == "*"
        case (.items(let a), .items(let b)):
            // An item pattern of "*" holds for every URL (absent counts as empty).
            return a.filter { $0.pattern.value != "*" }.allSatisfy { item in
                b.contains {
                    $0.name == item.name
                        && textCovers(
                            item.pattern.value, $0.pattern.value, caseSensitive: caseSensitive, sameFlags: sameFlags)
                }
            }
        case (.items(let a), _):
            return a.allSatisfy { $0.pattern.value == "*" }
        }
    }
}
