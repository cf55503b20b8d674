/// What validating one file found: the decoded file (when the JSON could be read) and every
/// diagnostic, in file order.
public struct ValidationReport: Sendable {
    public var file: AssociationFile?
    /// At most `OmittedDiagnostics.limit` of them; the rest are counted in `omitted`.
    public var diagnostics: [Diagnostic]
    public var omitted: OmittedDiagnostics
    public var byteCount: Int

    public var isValid: Bool { file != nil && !diagnostics.hasErrors && omitted.errors == 0 }
}
