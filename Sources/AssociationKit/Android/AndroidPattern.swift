/// A pattern as Android's `android.os.PatternMatcher` holds it: a type and the pattern's text,
/// compared with a URI part the way Java compares strings, by UTF-16 code units
/// (docs/association-files.md, "Android's matching"). The types and what each compares follow
/// `matchPattern` in AOSP's core/java/android/os/PatternMatcher.java (aosp-mirror/platform_frameworks_base
/// at 01a7983, line 213).
struct AndroidPattern: Sendable, Equatable {
    enum Kind: String, Sendable {
        /// PATTERN_LITERAL: the whole part equals the text.
        case literal = "LITERAL"
        /// PATTERN_PREFIX: the part starts with the text.
        case prefix = "PREFIX"
        /// PATTERN_SIMPLE_GLOB: `.` any character, `x*` a run of x, `.*` up to the next character.
        case simpleGlob = "GLOB"
        /// PATTERN_ADVANCED_GLOB: tokens with `*`, `+` and `{m,n}`, matched greedily.
        case advancedGlob = "ADVANCED"
        /// Not a PatternMatcher type: an expression StatementService's parser refuses (the empty
        /// one), so no filter can be built and the rule never matches.
        case refused = "REFUSED"
    }

    let kind: Kind
    let text: [UInt16]
    /// The advanced glob parsed once, as PatternMatcher does in its constructor; nil for the
    /// other kinds, or when the parser refuses the pattern (it throws; nothing can match then).
    let tokens: [AdvancedToken]?

    init(_ kind: Kind, _ text: [UInt16]) {
        self.kind = kind
        self.text = text
        tokens = kind == .advancedGlob ? Self.parseAdvanced(text) : nil
    }

    init(_ kind: Kind, _ text: String) {
        self.init(kind, Array(text.utf16))
    }

    /// The text as Java would print it.
    var string: String { String(decoding: text, as: UTF16.self) }

    /// Whether the part matches; a part the URI does not have (nil) never does, as
    /// `PatternMatcher.match(null)` is false.
    func matches(_ part: [UInt16]?) -> Bool {
        guard let part else { return false }
        switch kind {
        case .literal: return part == text
        case .prefix: return part.starts(with: text)
        case .simpleGlob: return Self.matchGlob(text, part)
        case .advancedGlob: return tokens.map { Self.matchAdvanced($0, part) } ?? false
        case .refused: return false
        }
    }

    static func == (lhs: AndroidPattern, rhs: AndroidPattern) -> Bool {
        lhs.kind == rhs.kind && lhs.text == rhs.text
    }
}
