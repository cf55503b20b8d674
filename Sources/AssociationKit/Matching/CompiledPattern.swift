/// A pattern string compiled once, at load time, for matching many URLs. A class, so a rule
/// holding it hands out one reference per check instead of copying its five arrays.
final class CompiledPattern: Sendable {
    let steps: [PatternStep]
    let sets: [AlternativeSet]
    /// Leading literal characters, checked before anything else to reject most URLs at once.
    let literalPrefix: [UInt32]
    /// Trailing literal characters, checked from the end.
    let literalSuffix: [UInt32]
    /// The longest run of literal characters, which any matching text contains.
    let requiredLiteral: [UInt32]
    /// The fewest characters a matching text has; with no `*` and no variable, the exact count.
    let minimumLength: Int
    let hasStar: Bool

    /// Compiles `text`. `variables` are the custom substitution variables (predefined ones are
    /// looked up by name); `nil` takes `$(…)` literally (legacy paths predate variables).
    init(_ text: String, caseSensitive: Bool, variables: [String: [String]]?) {
        let syntax = PatternSyntax.tokenize(text)
        var steps: [PatternStep] = []
        var sets: [AlternativeSet] = []
        var setIndex: [String: Int] = [:]
        for token in syntax.tokens {
            switch token {
            case .literal(let scalar):
                steps.append(.literal(caseSensitive ? scalar.value : CaseFolding.fold(scalar.value)))
            case .anyCharacter:
                steps.append(.one)
            case .anyRun:
                if steps.last != .star { steps.append(.star) }  // `**` is `*`
            case .variable(let name):
                guard let variables else {
                    steps += "$(\(name))".unicodeScalars.map {
                        .literal(caseSensitive ? $0.value : CaseFolding.fold($0.value))
                    }
                    continue
                }
                if let index = setIndex[name] {
                    steps.append(.alternatives(index))
                    continue
                }
                // A custom variable replaces a predefined one of the same name; an undefined
                // name has no values, so the pattern never matches (validator: AASA403).
                let values = variables[name] ?? PredefinedVariables.values(of: name) ?? []
                sets.append(AlternativeSet(values: values, caseSensitive: caseSensitive))
                setIndex[name] = sets.count - 1
                steps.append(.alternatives(sets.count - 1))
            }
        }
        self.steps = steps
        self.sets = sets
        literalPrefix = steps.prefix { if case .literal = $0 { true } else { false } }.map {
            if case .literal(let scalar) = $0 { scalar } else { 0 }
        }
        literalSuffix = Array(
            steps.reversed().prefix { if case .literal = $0 { true } else { false } }.reversed().map {
                if case .literal(let scalar) = $0 { scalar } else { 0 }
            })
        var longest: [UInt32] = []
        var run: [UInt32] = []
        for step in steps + [.star] {
            if case .literal(let scalar) = step {
                run.append(scalar)
            } else {
                if run.count > longest.count { longest = run }
                run = []
            }
        }
        requiredLiteral = longest.count > literalPrefix.count && longest.count > literalSuffix.count ? longest : []
        minimumLength = steps.reduce(0) { total, step in
            switch step {
            case .literal, .one: total + 1
            case .star: total
            case .alternatives(let index):
                sets[index].minimumLength == Int.max ? Int.max / 2 : total + sets[index].minimumLength
            }
        }
        hasStar = steps.contains(.star) || sets.contains { $0.hasWildcardValues }
    }

    /// True when the pattern is a lone `*`, which matches every text (and an absent one).
    var matchesEverything: Bool { steps == [.star] }

    func matches(_ text: [UInt32]) -> Bool {
        guard text.count >= minimumLength, text.count >= literalPrefix.count else { return false }
        if !hasStar && sets.isEmpty && text.count != minimumLength { return false }
        for index in literalPrefix.indices where text[index] != literalPrefix[index] { return false }
        let offset = text.count - literalSuffix.count
        for index in literalSuffix.indices where text[offset + index] != literalSuffix[index] { return false }
        if !requiredLiteral.isEmpty && !Self.contains(text, requiredLiteral) { return false }
        return text.withUnsafeBufferPointer { buffer in
            sets.isEmpty
                ? PatternEngine.matchGlob(steps, buffer) : PatternEngine.matchPositions(steps, sets: sets, buffer)
        }
    }

    private static func contains(_ text: [UInt32], _ needle: [UInt32]) -> Bool {
        guard text.count >= needle.count else { return false }
        let first = needle[0]
        outer: for start in 0...(text.count - needle.count) where text[start] == first {
            for index in 1..<needle.count where text[start + index] != needle[index] { continue outer }
            return true
        }
        return false
    }
}
