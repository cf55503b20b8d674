/// One part of a URL (path, query, fragment or a query item) in the four forms a rule may
/// compare: as written or percent-decoded, case-sensitive or folded. Forms are made on first
/// use and kept, so a URL checked against many rules converts each part at most once.
final class URLText {
    let encoded: [UInt32]
    /// Paths are compared in `PathNormalization` form, applied after decoding.
    private let isPath: Bool
    private var decodedCache: [UInt32]?
    private var foldedCache: [UInt32]?
    private var decodedFoldedCache: [UInt32]?

    init(_ encoded: [UInt32], isPath: Bool = false) {
        self.encoded = isPath ? PathNormalization.path(encoded) : encoded
        self.isPath = isPath
        if isPath { rawEncoded = encoded }
    }

    /// The path before normalization, kept so decoding sees the original escapes.
    private var rawEncoded: [UInt32] = []

    /// `decoded`: percent escapes decoded first (`percentEncoded: false`); `folded`:
    /// lower-cased (`caseSensitive: false`).
    func form(decoded: Bool, folded: Bool) -> [UInt32] {
        switch (decoded, folded) {
        case (false, false):
            return encoded
        case (false, true):
            if let foldedCache { return foldedCache }
            let folded = CaseFolding.fold(encoded)
            foldedCache = folded
            return folded
        case (true, false):
            if let decodedCache { return decodedCache }
            let decoded =
                isPath ? PathNormalization.path(PercentDecoding.decode(rawEncoded)) : PercentDecoding.decode(encoded)
            decodedCache = decoded
            return decoded
        case (true, true):
            if let decodedFoldedCache { return decodedFoldedCache }
            let decodedFolded = CaseFolding.fold(form(decoded: true, folded: false))
            decodedFoldedCache = decodedFolded
            return decodedFolded
        }
    }
}
