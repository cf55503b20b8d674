/// What a text file's check found (the Apple Pay file, `security.txt`, a file of a site's
/// `well-known/` folder): the diagnostics, in file order and capped as a JSON file's are.
public struct TextFileReport: Sendable {
    /// At most `OmittedDiagnostics.limit` of them; the rest are counted in `omitted`.
    public var diagnostics: [Diagnostic]
    public var omitted: OmittedDiagnostics
    /// `security.txt`'s `Expires`, in seconds since the epoch, when it has exactly one that parses.
    public var expires: Int?

    init(_ found: [Diagnostic], expires: Int? = nil) {
        (diagnostics, omitted) = found.limited(resolvingPointersIn: nil)
        self.expires = expires
    }

    public var isValid: Bool { !diagnostics.hasErrors && omitted.errors == 0 }
}
