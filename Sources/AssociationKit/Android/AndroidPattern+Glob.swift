extension AndroidPattern {
    static let star: UInt16 = 0x2A
    static let dot: UInt16 = 0x2E
    static let backslash: UInt16 = 0x5C

    /// PATTERN_SIMPLE_GLOB, as `matchGlobPattern` in PatternMatcher.java decides it (line 229 at
    /// 01a7983; read there, written here in our own terms). One pass, never backtracking:
    /// - `.` matches any one character, escaped or not (line 288; the escape only keeps `\.*`
    ///   from being the `.*` wildcard);
    /// - `c*` consumes a run of `c`;
    /// - `.*` consumes up to the first occurrence of the pattern's next character and takes that
    ///   character too (lines 262–267), so `.*/b` cannot match `/a/x/b` (it stops at the first `/`), and a `.`
    ///   after `.*` is looked for literally;
    /// - `.*` at the end matches the rest, even nothing.
    static func matchGlob(_ pattern: [UInt16], _ subject: [UInt16]) -> Bool {
        if pattern.isEmpty { return subject.isEmpty }
        // Java reads past the end as the character 0.
        func at(_ index: Int) -> UInt16 { index < pattern.count ? pattern[index] : 0 }
        var patternIndex = 0
        var subjectIndex = 0
        var next = pattern[0]
        while patternIndex < pattern.count && subjectIndex < subject.count {
            var current = next
            patternIndex += 1
            next = at(patternIndex)
            let escaped = current == backslash
            if escaped {
                current = next
                patternIndex += 1
                next = at(patternIndex)
            }
            guard next == star else {
                if current != dot && subject[subjectIndex] != current { return false }
                subjectIndex += 1
                continue
            }
            if !escaped && current == dot {
                if patternIndex >= pattern.count - 1 { return true }
                patternIndex += 1
                next = pattern[patternIndex]
                if next == backslash {
                    patternIndex += 1
                    next = at(patternIndex)
                }
                // Up to the first occurrence of the next character, which is then taken too.
                while subjectIndex < subject.count && subject[subjectIndex] != next { subjectIndex += 1 }
                if subjectIndex == subject.count { return false }
                patternIndex += 1
                next = at(patternIndex)
                subjectIndex += 1
            } else {
                while subjectIndex < subject.count && subject[subjectIndex] == current { subjectIndex += 1 }
                patternIndex += 1
                next = at(patternIndex)
            }
        }
        if patternIndex >= pattern.count && subjectIndex >= subject.count { return true }
        // The subject ended with only a `.*` left in the pattern.
        return patternIndex == pattern.count - 2 && pattern[patternIndex] == dot && pattern[patternIndex + 1] == star
    }
}
