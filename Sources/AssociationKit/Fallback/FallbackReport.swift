/// What validating a `fallback.json` found: the decoded file when it has no errors, and every
/// diagnostic in file order.
public struct FallbackReport: Sendable {
    public var file: FallbackFile?
    public var diagnostics: [Diagnostic]
    public var omitted: OmittedDiagnostics
}
