/// One token of a PATTERN_ADVANCED_GLOB with its repetition (`*`: 0 or more, `+`: 1 or more,
/// `{m,n}`; none: exactly once).
struct AdvancedToken: Sendable {
    enum Match: Sendable {
        case any
        case literal(UInt16)
        case set([ClosedRange<UInt16>], inverted: Bool)
    }

    var match: Match
    var minimum = 1
    var maximum = 1
    var hasModifier = false

    func accepts(_ unit: UInt16) -> Bool {
        switch match {
        case .any: true
        case .literal(let character): unit == character
        case .set(let ranges, let inverted): ranges.contains { $0.contains(unit) } != inverted
        }
    }
}

extension AndroidPattern {
    /// PatternMatcher.java's `parseAndVerifyAdvancedPattern` (line 314 at 01a7983), in our terms: nil where it throws
    /// (a modifier with nothing before it, an empty or unterminated set, a bad `{m,n}`, an
    /// escape at the end, more than its 2048-entry scratch holds). A stray `}` is dropped, as
    /// there.
    static func parseAdvanced(_ pattern: [UInt16]) -> [AdvancedToken]? {
        let bracketOpen: UInt16 = 0x5B
        let bracketClose: UInt16 = 0x5D
        let caret: UInt16 = 0x5E
        let dash: UInt16 = 0x2D
        let braceOpen: UInt16 = 0x7B
        let braceClose: UInt16 = 0x7D
        let plus: UInt16 = 0x2B
        var tokens: [AdvancedToken] = []
        // Entries of PatternMatcher's scratch array, for its size limit.
        var stored = 0
        var index = 0
        func modify(_ minimum: Int, _ maximum: Int) -> Bool {
            guard let last = tokens.indices.last, !tokens[last].hasModifier else { return false }
            tokens[last].minimum = minimum
            tokens[last].maximum = maximum
            tokens[last].hasModifier = true
            return true
        }
        while index < pattern.count {
            if stored > 2048 - 3 { return nil }
            let unit = pattern[index]
            switch unit {
            case bracketOpen:
                guard index + 1 < pattern.count else { return nil }
                let inverted = pattern[index + 1] == caret
                index += inverted ? 2 : 1
                var ranges: [ClosedRange<UInt16>] = []
                var members = 0
                var closed = false
                while index < pattern.count {
                    var member = pattern[index]
                    if member == bracketClose {
                        guard members > 0 else { return nil }
                        closed = true
                        break
                    }
                    if member == backslash {
                        index += 1
                        guard index < pattern.count else { return nil }
                        member = pattern[index]
                    }
                    if index + 2 < pattern.count && pattern[index + 1] == dash && pattern[index + 2] != bracketClose {
                        index += 2
                        var high = pattern[index]
                        if high == backslash {
                            index += 1
                            guard index < pattern.count else { return nil }
                            high = pattern[index]
                        }
                        // A reversed range matches nothing, as there.
                        if member <= high { ranges.append(member...high) }
                    } else {
                        ranges.append(member...member)
                    }
                    members += 1
                    stored += 2
                    index += 1
                }
                guard closed else { return nil }
                tokens.append(AdvancedToken(match: .set(ranges, inverted: inverted)))
                stored += 2
            case braceOpen:
                guard let end = pattern[(index + 1)...].firstIndex(of: braceClose) else { return nil }
                let text = String(decoding: pattern[(index + 1)..<end], as: UTF16.self)
                let parts = text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
                guard let minimum = Int(parts[0]), minimum >= 0 else { return nil }
                var maximum = minimum
                if parts.count == 2 {
                    if parts[1].isEmpty {
                        maximum = Int.max
                    } else {
                        guard let value = Int(parts[1]) else { return nil }
                        maximum = value
                    }
                }
                guard minimum <= maximum, modify(minimum, maximum) else { return nil }
                stored += 4
                index = end
            case braceClose:
                break
            case star, plus:
                guard modify(unit == star ? 0 : 1, Int.max) else { return nil }
                stored += 1
            case dot:
                tokens.append(AdvancedToken(match: .any))
                stored += 1
            case backslash:
                index += 1
                guard index < pattern.count else { return nil }
                tokens.append(AdvancedToken(match: .literal(pattern[index])))
                stored += 1
            default:
                tokens.append(AdvancedToken(match: .literal(unit)))
                stored += 1
            }
            index += 1
        }
        return tokens
    }

    /// PatternMatcher.java's `matchAdvancedPattern` (line 480 at 01a7983): each token takes as many characters as it
    /// may, at once and for good (no backtracking), so `.+bar` never matches: `.+` takes the
    /// `bar` too.
    static func matchAdvanced(_ tokens: [AdvancedToken], _ subject: [UInt16]) -> Bool {
        var position = 0
        for token in tokens {
            var taken = 0
            while taken < token.maximum && position + taken < subject.count && token.accepts(subject[position + taken])
            {
                taken += 1
            }
            if taken < token.minimum { return false }
            position += taken
        }
        return position >= subject.count
    }
}
