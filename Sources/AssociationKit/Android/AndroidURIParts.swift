/// A URL's parts as Android's rules see them: `android.net.Uri`'s `getPath()`, `getQuery()`
/// and `getFragment()`, which are **percent-decoded** (UTF-8, U+FFFD for bytes that are not),
/// in UTF-16 as Java holds them; a part the URL does not have is nil (`MatchURL.androidPath`,
/// `androidFragment`, `androidParameters`). The query's parameters are split as
/// `UriRelativeFilter.matchQuery` splits the decoded query
/// (core/java/android/content/UriRelativeFilter.java, line 150 at 1d47c3a): on `&`, or on `;`
/// when `&` leaves one piece.
enum AndroidURIParts {
    static func decoded(_ scalars: [UInt32]) -> [UInt16] {
        var units: [UInt16] = []
        units.reserveCapacity(scalars.count)
        for scalar in PercentDecoding.decode(scalars) {
            guard let unicode = Unicode.Scalar(scalar) else { continue }
            units.append(contentsOf: unicode.utf16)
        }
        return units
    }

    /// The decoded query's parameters.
    static func parameters(_ query: [UInt16]) -> [[UInt16]] {
        let byAmpersand = javaSplit(query, on: 0x26)
        return byAmpersand.count == 1 ? javaSplit(query, on: 0x3B) : byAmpersand
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
