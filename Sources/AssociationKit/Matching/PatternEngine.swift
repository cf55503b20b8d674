/// Whole-string pattern matching in polynomial time.
///
/// WWDC20 warned that matching was exponential in Apple's implementation; ours never
/// backtracks exponentially. Patterns without variables use the classic greedy wildcard
/// algorithm, which only ever revisits the most recent `*` (O(text × pattern) worst case,
/// linear in practice). Patterns with variables advance a set of reachable text positions
/// one step at a time, each step on whole 64-bit words: a literal, `?` or `*` costs
/// O(text / 64); a variable costs O(text × longest literal value) for its literal values
/// plus O(text / 64) per node of its wildcard values' trie (`AlternativeSet`). So a match
/// costs O(text × (steps + Σ over variable uses of that cost / text)), which
/// `AlternativeSet.cost` estimates and the validator warns about when it is large (AASA311).
enum PatternEngine {
    static func matchGlob(_ steps: [PatternStep], _ text: UnsafeBufferPointer<UInt32>) -> Bool {
        let count = text.count
        var p = 0
        var t = 0
        var starStep = -1
        var starText = 0
        while t < count {
            if p < steps.count {
                switch steps[p] {
                case .literal(let scalar) where scalar == text[t]:
                    p += 1
                    t += 1
                    continue
                case .one:
                    p += 1
                    t += 1
                    continue
                case .star:
                    starStep = p
                    starText = t
                    p += 1
                    continue
                default:
                    break
                }
            }
            guard starStep >= 0 else { return false }
            p = starStep + 1
            starText += 1
            t = starText
        }
        while p < steps.count, steps[p] == .star { p += 1 }
        return p == steps.count
    }

    static func matchPositions(_ steps: [PatternStep], sets: [AlternativeSet], _ text: UnsafeBufferPointer<UInt32>)
        -> Bool
    {
        var start = PositionSet(count: text.count)
        start.insert(0)
        var masks = TextMasks(text)
        return advance(steps, sets: sets, from: start, &masks).contains(text.count)
    }

    /// The positions reachable from `current` after consuming `steps` in sequence.
    static func advance(
        _ steps: [PatternStep], sets: [AlternativeSet], from current: PositionSet, _ text: inout TextMasks
    ) -> PositionSet {
        var positions = current
        for step in steps {
            switch step {
            case .alternatives(let set):
                positions = sets[set].advance(positions, &text)
            default:
                positions = advance(positions, over: step, &text)
            }
            if positions.isEmpty { break }
        }
        return positions
    }

    /// One literal, `?` or `*` step.
    static func advance(_ positions: PositionSet, over step: PatternStep, _ text: inout TextMasks) -> PositionSet {
        switch step {
        case .literal(let scalar): positions.advanced(over: scalar, &text)
        case .one: positions.shifted()
        case .star: positions.fromFirst()
        case .alternatives: preconditionFailure("variables are advanced by their AlternativeSet")
        }
    }
}
