/// Whole-string pattern matching in polynomial time.
///
/// WWDC20 warned that matching was exponential in Apple's implementation; ours never
/// backtracks exponentially. Patterns without variables use the classic greedy wildcard
/// algorithm, which only ever revisits the most recent `*` (O(text × pattern) worst case,
/// linear in practice). Patterns with variables run as a set of reachable text positions
/// advanced one step at a time (O(text × steps × longest value)).
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

    static func matchPositions(_ steps: [PatternStep], sets: [AlternativeSet], _ text: UnsafeBufferPointer<UInt32>) -> Bool {
        let size = text.count + 1
        return withUnsafeTemporaryAllocation(of: Bool.self, capacity: size * 2) { buffer in
            var current = UnsafeMutableBufferPointer(rebasing: buffer[0..<size])
            var next = UnsafeMutableBufferPointer(rebasing: buffer[size..<(2 * size)])
            current.initialize(repeating: false)
            current[0] = true
            for step in steps {
                next.initialize(repeating: false)
                advance(steps: CollectionOfOne(step), sets: sets, from: current, text, into: next)
                swap(&current, &next)
                if !current.contains(true) { return false }
            }
            return current[text.count]
        }
    }

    /// Applies `steps` in sequence to the position set `current`, or'ing the result into
    /// `into`. Used for a whole pattern one step at a time, and for a variable's value.
    static func advance<Steps: Collection>(
        steps: Steps, sets: [AlternativeSet], from current: UnsafeMutableBufferPointer<Bool>,
        _ text: UnsafeBufferPointer<UInt32>, into target: UnsafeMutableBufferPointer<Bool>
    ) where Steps.Element == PatternStep {
        let count = text.count
        if steps.count == 1, let step = steps.first {
            apply(step, sets: sets, from: current, text, into: target)
            return
        }
        withUnsafeTemporaryAllocation(of: Bool.self, capacity: (count + 1) * 2) { buffer in
            var from = UnsafeMutableBufferPointer(rebasing: buffer[0...count])
            var to = UnsafeMutableBufferPointer(rebasing: buffer[(count + 1)...])
            _ = from.initialize(fromContentsOf: current)
            for step in steps {
                to.initialize(repeating: false)
                apply(step, sets: sets, from: from, text, into: to)
                swap(&from, &to)
            }
            for index in 0...count where from[index] { target[index] = true }
        }
    }

    private static func apply(
        _ step: PatternStep, sets: [AlternativeSet], from current: UnsafeMutableBufferPointer<Bool>,
        _ text: UnsafeBufferPointer<UInt32>, into next: UnsafeMutableBufferPointer<Bool>
    ) {
        let count = text.count
        switch step {
        case .literal(let scalar):
            for index in 0..<count where current[index] && text[index] == scalar { next[index + 1] = true }
        case .one:
            for index in 0..<count where current[index] { next[index + 1] = true }
        case .star:
            guard let first = current.firstIndex(of: true) else { return }
            for index in first...count { next[index] = true }
        case .alternatives(let set):
            sets[set].advance(current, text, into: next)
        }
    }
}
