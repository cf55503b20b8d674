/// Which of a page's language variants an `Accept-Language` field asks for (RFC 9110 §12.5.4):
/// the ranges with the highest weight first, and among equal weights the first listed; a range
/// picks the variant it names exactly, else the variant it is more specific than (`pt-BR` → `pt`,
/// RFC 4647 §3.4 lookup), else a variant it is a prefix of (`de` → `de-CH`, §3.3.1 basic filtering).
/// The page's default texts stand for `defaultLanguage` and for `*`.
///
/// Made at load; `choose` reads the field's bytes once, allocates nothing, and stops after
/// `maximumBytes` bytes or `maximumRanges` ranges, so a long field costs no more than a short one.
public struct LanguageChoice: Sendable {
    public static let maximumBytes = 512
    public static let maximumRanges = 24

    /// The variants' tags lowercased, then the default's.
    let tags: [[UInt8]]

    public init(languages: [String], defaultLanguage: String = "en") {
        tags = (languages + [defaultLanguage]).map { tag in tag.utf8.map(Self.lower) }
    }

    /// The index in `languages` of the variant to show, or nil for the default texts.
    public func choose(_ field: UnsafeBufferPointer<UInt8>) -> Int? {
        var best: (weight: Int, range: Int, quality: Int, tag: Int)?
        var rangeIndex = 0
        var start = 0
        let end = min(field.count, Self.maximumBytes)
        while start < end, rangeIndex < Self.maximumRanges {
            var stop = start
            while stop < end, field[stop] != UInt8(ascii: ",") { stop += 1 }
            if let (range, weight) = Self.element(field, start..<stop), weight > 0 {
                for tag in tags.indices {
                    let quality = quality(field, range, tags[tag])
                    guard quality > 0 else { continue }
                    let better =
                        best.map { weight > $0.weight || ($0.range == rangeIndex && quality > $0.quality) } ?? true
                    if better { best = (weight, rangeIndex, quality, tag) }
                }
                rangeIndex += 1
            }
            start = stop + 1
        }
        guard let best, best.tag < tags.count - 1 else { return nil }
        return best.tag
    }

    public func choose(_ field: String) -> Int? {
        Array(field.utf8).withUnsafeBufferPointer { choose($0) }
    }

    /// One list element, `language-range *( OWS ";" OWS parameter )`: the range's bytes and
    /// its weight in thousandths (1000 without `q`), nil when the element is malformed.
    static func element(_ field: UnsafeBufferPointer<UInt8>, _ bounds: Range<Int>) -> (Range<Int>, Int)? {
        var lower = bounds.lowerBound
        var upper = bounds.upperBound
        while lower < upper, isSpace(field[lower]) { lower += 1 }
        var rangeEnd = lower
        while rangeEnd < upper, field[rangeEnd] != UInt8(ascii: ";"), !isSpace(field[rangeEnd]) { rangeEnd += 1 }
        guard rangeEnd > lower else { return nil }
        var weight = 1000
        // The only parameter RFC 9110 §12.4.2 defines here is the weight.
        var cursor = rangeEnd
        while cursor < upper, isSpace(field[cursor]) { cursor += 1 }
        if cursor < upper {
            guard field[cursor] == UInt8(ascii: ";") else { return nil }
            cursor += 1
            while cursor < upper, isSpace(field[cursor]) { cursor += 1 }
            while upper > cursor, isSpace(field[upper - 1]) { upper -= 1 }
            guard upper - cursor >= 3, field[cursor] | 0x20 == UInt8(ascii: "q"), field[cursor + 1] == UInt8(ascii: "=")
            else { return nil }
            guard let parsed = qvalue(field, (cursor + 2)..<upper) else { return nil }
            weight = parsed
        }
        return (lower..<rangeEnd, weight)
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` (RFC 9110 §12.4.2), in thousandths.
    static func qvalue(_ field: UnsafeBufferPointer<UInt8>, _ bounds: Range<Int>) -> Int? {
        guard !bounds.isEmpty, bounds.count <= 5 else { return nil }
        let first = field[bounds.lowerBound]
        guard first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        guard bounds.count > 1 else { return value }
        guard field[bounds.lowerBound + 1] == UInt8(ascii: ".") else { return nil }
        var scale = 100
        for index in (bounds.lowerBound + 2)..<bounds.upperBound {
            let byte = field[index]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value += Int(byte - 0x30) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    /// 3 for the same tag, 2 when the tag is a prefix of the range at a `-`, 1 when the range
    /// is a prefix of the tag at a `-` or the range is `*` and the tag is the default's, else 0.
    func quality(_ field: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ tag: [UInt8]) -> Int {
        if range.count == 1, field[range.lowerBound] == UInt8(ascii: "*") {
            return tag == tags[tags.count - 1] ? 1 : 0
        }
        let common = min(range.count, tag.count)
        for offset in 0..<common where Self.lower(field[range.lowerBound + offset]) != tag[offset] { return 0 }
        if range.count == tag.count { return 3 }
        if range.count > tag.count { return field[range.lowerBound + common] == UInt8(ascii: "-") ? 2 : 0 }
        return tag[common] == UInt8(ascii: "-") ? 1 : 0
    }

    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
