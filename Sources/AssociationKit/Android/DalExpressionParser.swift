/// How StatementService turns a dynamic rule's expression (`*` any run, `?` one character) into
/// a PatternMatcher type and pattern: `parseMatchingExpression` in AOSP's
/// packages/StatementService/Parser/src/com/android/statementservice/parser/DalComponentParser.kt
/// (line 40 in the newest version, 41 in the two before).
/// Three versions of it exist (docs/association-files.md, "Android's matching"); the server
/// matches with the newest and warns where Android 15's read a rule differently.
enum DalExpressionParser {
    enum Version: Sendable, CaseIterable {
        /// The newest: a literal or prefix kept as written, anything else a simple glob with
        /// `.` and `\` escaped (as in yaap/frameworks_base at f6328b6, Android 16).
        case newest
        /// Android 15's: `?*` makes an advanced glob (`.+`, greedy), and `.` counts as a
        /// wildcard, so a dotted literal becomes a glob whose escaped `.` matches any character
        /// (as in muhomorr/platform_frameworks_base-15 at bfa4a63).
        case android15
        /// The first, in AOSP's main branch in 2024: as `android15`, but `.` is escaped without
        /// counting, so a dotted literal is a LITERAL with a backslash and never matches (as in
        /// aosp-mirror/platform_frameworks_base at d618c46).
        case android15First
    }

    /// The pattern for `expression`; an empty expression is refused (the parser throws).
    static func parse(_ expression: String, _ version: Version) -> AndroidPattern {
        let units = Array(expression.utf16)
        guard !units.isEmpty else { return AndroidPattern(.refused, []) }
        switch version {
        case .newest: return newest(units)
        case .android15, .android15First: return android15(units, countsDots: version == .android15)
        }
    }

    private static let question: UInt16 = 0x3F
    private static let star = AndroidPattern.star
    private static let dot = AndroidPattern.dot
    private static let backslash = AndroidPattern.backslash

    private static func newest(_ units: [UInt16]) -> AndroidPattern {
        let wildcards = units.count(where: { $0 == question || $0 == star })
        if wildcards == 0 { return AndroidPattern(.literal, units) }
        if wildcards == 1 && units.last == star { return AndroidPattern(.prefix, Array(units.dropLast())) }
        var pattern: [UInt16] = []
        pattern.reserveCapacity(units.count * 2)
        for unit in units {
            switch unit {
            case star: pattern += [dot, star]
            case question: pattern.append(dot)
            case dot: pattern += [backslash, dot]
            case backslash: pattern += [backslash, backslash]
            default: pattern.append(unit)
            }
        }
        return AndroidPattern(.simpleGlob, pattern)
    }

    private static func android15(_ units: [UInt16], countsDots: Bool) -> AndroidPattern {
        let advanced = zip(units, units.dropFirst()).contains { $0 == question && $1 == star }
        let escapedInAdvanced: Set<UInt16> = [0x5B, 0x5D, 0x7B, 0x7D]
        var pattern: [UInt16] = []
        var wildcards = 0
        for unit in units {
            switch unit {
            case star:
                // A `*` after the `.` a `?` became is a `+`: `?*` is one or more.
                if pattern.last == dot && !pattern.suffix(2).elementsEqual([backslash, dot]) {
                    pattern.append(0x2B)
                } else {
                    wildcards += 1
                    pattern += [dot, star]
                }
            case question:
                wildcards += 1
                pattern.append(dot)
            case dot:
                if countsDots { wildcards += 1 }
                pattern += [backslash, dot]
            case _ where escapedInAdvanced.contains(unit):
                if advanced { pattern.append(backslash) }
                pattern.append(unit)
            default:
                pattern.append(unit)
            }
        }
        if wildcards == 0 { return AndroidPattern(.literal, pattern) }
        if wildcards == 1 && pattern.suffix(2).elementsEqual([dot, star]) {
            return AndroidPattern(.prefix, Array(pattern.dropLast(2)))
        }
        return AndroidPattern(advanced ? .advancedGlob : .simpleGlob, pattern)
    }
}
