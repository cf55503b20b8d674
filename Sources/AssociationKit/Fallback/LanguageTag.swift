/// Well-formedness of a language tag (RFC 5646 §2.1, BCP 47's syntax; §2.2.9: well-formed, not
/// validated against the registry): `language[-extlang][-script][-region]*(-variant)*(-extension)
/// [-privateuse]`, or a private-use tag. The grandfathered irregular tags (`i-klingon`) are
/// refused: RFC 5646 deprecates them all. Bounded: longer than `maximumLength` bytes is refused
/// before any subtag is read.
public enum LanguageTag {
    public static let maximumLength = 64

    public static func isWellFormed(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
        let subtags = bytes.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard subtags.allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy(isAlphanumeric) }) else {
            return false
        }
        var index = 0
        func next(_ accept: (ArraySlice<UInt8>) -> Bool) -> Bool {
            guard index < subtags.count, accept(subtags[index]) else { return false }
            index += 1
            return true
        }
        if isSingleton(subtags[0], "x") { return privateUse(subtags, from: 0) }
        // language: 2-3 letters (then up to three 3-letter extlangs), 4 reserved, 5-8 registered.
        guard next({ $0.count >= 2 && $0.count != 4 && $0.allSatisfy(isLetter) }) else { return false }
        if subtags[0].count <= 3 {
            var extlangs = 0
            while extlangs < 3, next({ $0.count == 3 && $0.allSatisfy(isLetter) }) { extlangs += 1 }
        }
        _ = next { $0.count == 4 && $0.allSatisfy(isLetter) }
        _ = next { ($0.count == 2 && $0.allSatisfy(isLetter)) || ($0.count == 3 && $0.allSatisfy(isDigit)) }
        while next(isVariant) {}
        var singletons: Set<UInt8> = []
        while index < subtags.count, subtags[index].count == 1 {
            let singleton = subtags[index][subtags[index].startIndex] | 0x20
            if singleton == UInt8(ascii: "x") { return privateUse(subtags, from: index) }
            // §2.2.6: an extension singleton appears once, and has at least one 2-8 subtag.
            guard singletons.insert(singleton).inserted else { return false }
            index += 1
            guard next({ $0.count >= 2 }) else { return false }
            while next({ $0.count >= 2 }) {}
        }
        return index == subtags.count
    }

    /// `x` followed by one or more 1-8 subtags, to the end.
    static func privateUse(_ subtags: [ArraySlice<UInt8>], from index: Int) -> Bool {
        index + 1 < subtags.count
    }

    /// 5-8 alphanumerics, or a digit and three alphanumerics.
    static func isVariant(_ subtag: ArraySlice<UInt8>) -> Bool {
        subtag.count >= 5 || (subtag.count == 4 && isDigit(subtag[subtag.startIndex]))
    }

    static func isSingleton(_ subtag: ArraySlice<UInt8>, _ letter: Character) -> Bool {
        subtag.count == 1 && subtag[subtag.startIndex] | 0x20 == letter.asciiValue
    }

    static func isLetter(_ byte: UInt8) -> Bool { byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
}
