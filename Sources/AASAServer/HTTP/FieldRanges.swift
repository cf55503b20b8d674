/// The value ranges of a header field that may repeat (Accept-Encoding), kept inline for the
/// usual one or two occurrences so parsing a request allocates nothing.
struct FieldRanges {
    private var first: Range<Int>?
    private var second: Range<Int>?
    private var more: [Range<Int>] = []

    init() {}

    init(_ ranges: [Range<Int>]) {
        for range in ranges { append(range) }
    }

    mutating func append(_ range: Range<Int>) {
        if first == nil {
            first = range
        } else if second == nil {
            second = range
        } else {
            more.append(range)
        }
    }

    func forEachRange(_ body: (Range<Int>) -> Void) {
        if let first { body(first) }
        if let second { body(second) }
        more.forEach(body)
    }
}
