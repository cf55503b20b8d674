/// What validating one file found: the decoded file (when the JSON could be read) and every
/// diagnostic, in file order.
public struct ValidationReport: Sendable {
    public var file: AssociationFile?
    public var diagnostics: [Diagnostic]
    public var byteCount: Int

    public var isValid: Bool { file != nil && !diagnostics.hasErrors }
}
