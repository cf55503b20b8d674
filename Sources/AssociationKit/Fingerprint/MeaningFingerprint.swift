/// What a JSON document means, as one number: FNV-1a of its canonical form
/// (`JSONValue.canonical`), so whitespace, key order, escapes and number spelling do not
/// count. The CDN watch and `probe --cdn` compare Apple's CDN copy with the origin's this
/// one way (docs/watches.md, "Apple's CDN").
public struct MeaningFingerprint: Hashable, Sendable {
    public let value: UInt64

    /// nil when `bytes` is not one JSON value.
    public init?(json bytes: [UInt8]) {
        let document = JSONDocument.parse(bytes)
        guard let root = document.root, !document.diagnostics.contains(where: { $0.severity == .error }) else {
            return nil
        }
        value = FNV1a.hash64(root.canonical.utf8)
    }

    /// The fingerprint of a meaning already written in one canonical form (`AppLinkGrants`).
    public init(canonical text: String) {
        value = FNV1a.hash64(text.utf8)
    }
}
