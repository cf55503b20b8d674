import AssociationKit

/// Diagnostics as compiler-style lines, `PATH:LINE:COLUMN: severity: MESSAGE (at POINTER) [CODE]`:
/// the one format `validate`, `match` and the server's start-up and reload reports share.
public enum DiagnosticLines {
    public static func render(
        _ diagnostics: [Diagnostic], path: String, omitted: OmittedDiagnostics = OmittedDiagnostics(),
        includeInfo: Bool = false
    ) -> String {
        var out = ""
        for diagnostic in diagnostics where diagnostic.isShown(withNotes: includeInfo) {
            out +=
                "\(path):\(diagnostic.location.line):\(diagnostic.location.column): \(diagnostic.severity.rawValue): "
                + "\(diagnostic.messageWithPointer) [\(diagnostic.code.rawValue)]\n"
        }
        if omitted.count > 0 { out += "\(path): note: \(summary(of: omitted))\n" }
        return out
    }

    /// `and 64800 more not shown (64800 errors, 0 warnings, 0 notes): only the first 200 are listed`.
    public static func summary(of omitted: OmittedDiagnostics) -> String {
        "and \(omitted.count) more not shown (\(omitted.errors) errors, \(omitted.warnings) warnings, "
            + "\(omitted.infos) notes): "
            + "only the first \(OmittedDiagnostics.limit) of a file are listed"
    }
}
