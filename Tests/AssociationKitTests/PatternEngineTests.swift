import Testing

@testable import AssociationKit

/// The position-set engine against a plain backtracking reference, on random patterns with
/// variables (literal and wildcard values) and texts on both sides of 64 characters, where
/// the engine switches from one machine word to arrays of words.
@Suite("pattern engine against a reference")
struct PatternEngineTests {
    /// A small deterministic generator (SplitMix64), so a failure repeats.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Whether `text` matches `pattern`, each `$(v)` standing for one of `values`.
    static func reference(_ pattern: [Character], _ text: [Character], _ values: [[Character]]) -> Bool {
        var memo: [Int: Bool] = [:]
        func match(_ p: Int, _ t: Int) -> Bool {
            let key = p * 10_000 + t
            if let known = memo[key] { return known }
            let result: Bool
            if p == pattern.count {
                result = t == text.count
            } else if pattern[p] == "$" {
                result = values.contains { value in glob(value, 0, t) { match(p + 1, $0) } }
            } else {
                result = glob([pattern[p]], 0, t) { match(p + 1, $0) }
            }
            memo[key] = result
            return result
        }
        // Matches `steps` from text position `t`, then calls `rest` with each end position.
        func glob(_ steps: [Character], _ s: Int, _ t: Int, _ rest: (Int) -> Bool) -> Bool {
            if s == steps.count { return rest(t) }
            switch steps[s] {
            case "*": return (t...text.count).contains { glob(steps, s + 1, $0, rest) }
            case "?": return t < text.count && glob(steps, s + 1, t + 1, rest)
            default: return t < text.count && text[t] == steps[s] && glob(steps, s + 1, t + 1, rest)
            }
        }
        return match(0, 0)
    }

    @Test("random patterns and texts decide as the reference does")
    func randomAgreement() {
        var random = Generator(state: 20_261_123)
        var matched = [0, 0, 0]
        let valuePool = ["a", "ab", "*b", "?", "a*", "ba", "b?a", "*"]
        for round in 0..<1_500 {
            let values = (0..<Int.random(in: 1...4, using: &random)).map { _ in valuePool.randomElement(using: &random)!
            }
            // A leading `*` lets the rest meet a long text's end, where the word boundaries are.
            let lead = Bool.random(using: &random) ? ["*"] : []
            let pattern =
                lead
                + (0..<Int.random(in: 1...8, using: &random)).map { _ in
                    ["a", "b", "*", "?", "$"].randomElement(using: &random)!
                }
            let length = [
                Int.random(in: 0...20, using: &random), Int.random(in: 60...70, using: &random),
                Int.random(in: 120...200, using: &random),
            ][round % 3]
            // Mostly "a" so that patterns have a fair chance to match.
            let text = (0..<length).map { _ in
                Int.random(in: 0..<6, using: &random) == 0 ? Character("b") : Character("a")
            }
            let patternText = pattern.map { $0 == "$" ? "$(v)" : $0 }.joined()
            let compiled = CompiledPattern(patternText, caseSensitive: true, variables: ["v": values])
            let expected = Self.reference(pattern.map { Character($0) }, text, values.map(Array.init))
            #expect(
                compiled.matches(text.map { $0.unicodeScalars.first!.value }) == expected,
                "\(patternText) v=\(values) text=\(String(text))")
            if expected { matched[round % 3] += 1 }
        }
        // Both outcomes occur for each text length class, or the comparison proves little.
        #expect(matched.allSatisfy { $0 > 50 && $0 < 450 }, "matches per length class: \(matched)")
    }
}
