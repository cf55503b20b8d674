/// A URL's parts as Android's rules see them: `android.net.Uri`'s `getPath()`, `getQuery()`
/// and `getFragment()`, which are **percent-decoded** (UTF-8, U+FFFD for bytes that are not),
/// in UTF-16 as Java holds them; nil for a part the URL does not have. The query's parameters
/// are split as `UriRelativeFilter.matchQuery` splits the decoded query
/// (core/java/android/content/UriRelativeFilter.java, line 150 at 1d47c3a): on `&`, or on `;` when `&` leaves one piece.
struct AndroidURIParts {
    let path: [UInt16]
    let query: [UInt16]?
    let fragment: [UInt16]?
    let parameters: [[UInt16]]

    init(path: [UInt32], query: [UInt32]?, fragment: [UInt32]?) {
        self.path = Self.decoded(path)
        self.query = query.map(Self.decoded)
        self.fragment = fragment.map(Self.decoded)
        guard let query = self.query else {
            parameters = []
            return
        }
        let byAmpersand = Self.javaSplit(query, on: 0x26)
        parameters = byAmpersand.count == 1 ? Self.javaSplit(query, on: 0x3B) : byAmpersand
    }

    static func decoded(_ scalars: [UInt32]) -> [UInt16] {
        var units: [UInt16] = []
        units.reserveCapacity(scalars.count)
        for scalar in PercentDecoding.decode(scalars) {
            guard let unicode = Unicode.Scalar(scalar) else { continue }
            units.append(contentsOf: unicode.utf16)
        }
        return units
    }

    /// Java's `String.split` with a one-character separator: the whole text when the separator
    /// is absent, otherwise the pieces without the empty ones at the end.
    static func javaSplit(_ text: [UInt16], on separator: UInt16) -> [[UInt16]] {
        guard text.contains(separator) else { return [text] }
        var pieces = text.split(separator: separator, omittingEmptySubsequences: false).map(Array.init)
        while pieces.last?.isEmpty == true { pieces.removeLast() }
        return pieces
    }
}
