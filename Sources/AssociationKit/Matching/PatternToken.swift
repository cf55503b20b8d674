/// One element of a pattern string (Apple, "applinks.details.components"): a literal character, `?` (exactly one
/// character), `*` (any run, possibly empty, crossing `/`) or `$(name)`. There is no escape
/// syntax: `*`, `?` and `$(` always have their special meaning.
public enum PatternToken: Sendable, Equatable {
    case literal(Unicode.Scalar)
    case anyCharacter
    case anyRun
    case variable(String)
}

/// Splits pattern text into tokens.
public enum PatternSyntax {
    public struct Result: Sendable {
        public var tokens: [PatternToken]
        /// Scalar offset of a `$(` with no closing `)`; its text is then taken literally.
        public var unterminatedVariableAt: Int?
        public var variableNames: [String] {
            tokens.compactMap { if case .variable(let name) = $0 { name } else { nil } }
        }
    }

    /// Linear in the text: once a search for `)` fails, no later `$(` can close either, so
    /// the rest is never searched again.
    public static func tokenize(_ text: String) -> Result {
        let scalars = Array(text.unicodeScalars)
        var tokens: [PatternToken] = []
        tokens.reserveCapacity(scalars.count)
        var unterminated: Int?
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "*": tokens.append(.anyRun)
            case "?": tokens.append(.anyCharacter)
            case "$" where index + 1 < scalars.count && scalars[index + 1] == "(":
                if unterminated == nil, let close = scalars[(index + 2)...].firstIndex(of: ")") {
                    var name = String.UnicodeScalarView()
                    name.append(contentsOf: scalars[(index + 2)..<close])
                    tokens.append(.variable(String(name)))
                    index = close + 1
                    continue
                }
                unterminated = unterminated ?? index
                tokens.append(.literal(scalar))
            default: tokens.append(.literal(scalar))
            }
            index += 1
        }
        return Result(tokens: tokens, unterminatedVariableAt: unterminated)
    }
}
