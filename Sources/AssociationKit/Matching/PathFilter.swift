/// A cheap test that rejects most rules for a URL before any pattern runs: the first and last
/// eight ASCII characters of a rule's path pattern, the characters it must contain and its
/// length bounds, held as plain words so checking a rule touches no reference counts. A rule
/// that passes still runs its full pattern; a rule that fails could never have matched.
struct PathFilter: Sendable {
    var prefix: UInt64 = 0
    var prefixMask: UInt64 = 0
    var suffix: UInt64 = 0
    var suffixMask: UInt64 = 0
    /// One bit per required ASCII character (its value modulo 64).
    var characters: UInt64 = 0
    var minimumLength = 0
    /// The form of the URL path the rule compares (see `URLForm`).
    var form: URLForm

    /// A filter that admits every URL (rules without a path pattern).
    init(form: URLForm) {
        self.form = form
    }

    init(pattern: CompiledPattern, form: URLForm) {
        self.form = form
        (prefix, prefixMask) = Self.pack(pattern.literalPrefix.prefix(8).prefix { $0 < 0x80 })
        (suffix, suffixMask) = Self.pack(pattern.literalSuffix.suffix(8).reversed().prefix { $0 < 0x80 })
        for step in pattern.steps {
            if case .literal(let scalar) = step, scalar < 0x80 { characters |= 1 << UInt64(scalar & 63) }
        }
        minimumLength = pattern.minimumLength
    }

    @inline(__always)
    func admits(_ summary: PathSummary) -> Bool {
        summary.length >= minimumLength && summary.prefix & prefixMask == prefix
            && summary.suffix & suffixMask == suffix
            && summary.characters & characters == characters
    }

    /// Up to eight scalars, one byte each; a scalar past 0x80 ends the run (a pattern literal
    /// outside ASCII cannot be packed, and a shorter filter is still correct). Texts clamp
    /// non-ASCII scalars to 0x80 first, a byte no pattern literal packs to.
    static func pack<S: Sequence>(_ scalars: S) -> (value: UInt64, mask: UInt64) where S.Element == UInt32 {
        var value: UInt64 = 0
        var mask: UInt64 = 0
        for (index, scalar) in scalars.enumerated() {
            guard scalar <= 0x80 else { break }
            value |= UInt64(scalar) << UInt64(index * 8)
            mask |= 0xFF << UInt64(index * 8)
        }
        return (value, mask)
    }
}

/// The same facts about one form of a URL path, computed once per URL and form.
struct PathSummary: Sendable {
    var prefix: UInt64
    var suffix: UInt64
    var characters: UInt64
    var length: Int

    init(_ text: [UInt32]) {
        length = text.count
        prefix = 0
        suffix = 0
        characters = 0
        // Non-ASCII scalars pack as 0x80, which no packed pattern literal equals.
        for (index, scalar) in text.enumerated() {
            let byte = UInt64(min(scalar, 0x80))
            if index < 8 { prefix |= byte << UInt64(index * 8) }
            let fromEnd = text.count - 1 - index
            if fromEnd < 8 { suffix |= byte << UInt64(fromEnd * 8) }
            if scalar < 0x80 { characters |= 1 << UInt64(scalar & 63) }
        }
    }
}

/// Which of the four forms of a URL part a rule compares.
enum URLForm: Int, Sendable {
    case encoded = 0
    case folded, decoded, decodedFolded

    init(decoded: Bool, folded: Bool) {
        switch (decoded, folded) {
        case (false, false): self = .encoded
        case (false, true): self = .folded
        case (true, false): self = .decoded
        case (true, true): self = .decodedFolded
        }
    }
}
