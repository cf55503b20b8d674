/// What validating one file found: the decoded file (when the JSON could be read) and every
/// diagnostic, in file order.
public struct ValidationReport: Sendable {
    public var file: AssociationFile?
    /// At most `OmittedDiagnostics.limit` of them; the rest are counted in `omitted`.
    public var diagnostics: [Diagnostic]
    public var omitted: OmittedDiagnostics
    public var byteCount: Int
    /// Set for a CMS-signed file: what its signature and signer were found to be.
    public var envelope: SignedEnvelope?
    /// A signed file's content, which the positions refer to; nil for a plain file (the bytes).
    public var content: [UInt8]?

    public var isValid: Bool { file != nil && !diagnostics.hasErrors && omitted.errors == 0 }
}
