/// A pattern string compiled once, at load time, for matching many URLs.
struct CompiledPattern: Sendable {
    let steps: [PatternStep]
    let sets: [AlternativeSet]
    /// Leading literal characters, checked before anything else to reject most URLs at once.
    let literalPrefix: [UInt32]
    /// The fewest characters a matching text has; with no `*` and no variable, the exact count.
    let minimumLength: Int
    let hasStar: Bool

    /// - Parameters:
    ///   - variables: custom substitution variables; predefined ones are looked up by name.
    ///     `nil` takes `$(…)` literally (legacy paths predate variables).
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
                    steps += "$(\(name))".unicodeScalars.map { .literal(caseSensitive ? $0.value : CaseFolding.fold($0.value)) }
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
        minimumLength = steps.reduce(0) { total, step in
            switch step {
            case .literal, .one: total + 1
            case .star: total
            case .alternatives(let index): sets[index].minimumLength == Int.max ? Int.max / 2 : total + sets[index].minimumLength
            }
        }
        hasStar = steps.contains(.star) || sets.contains { !$0.wildcardValues.isEmpty }
    }

    /// True when the pattern is a lone `*`, which matches every text (and an absent one).
    var matchesEverything: Bool { steps == [.star] }

    func matches(_ text: [UInt32]) -> Bool {
        guard text.count >= minimumLength, text.count >= literalPrefix.count else { return false }
        if !hasStar && sets.isEmpty && text.count != minimumLength { return false }
        for index in literalPrefix.indices where text[index] != literalPrefix[index] { return false }
        return text.withUnsafeBufferPointer { buffer in
            sets.isEmpty ? PatternEngine.matchGlob(steps, buffer) : PatternEngine.matchPositions(steps, sets: sets, buffer)
        }
    }
}
