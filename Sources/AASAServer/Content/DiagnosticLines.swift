import AssociationKit

/// Diagnostics as compiler-style lines, `PATH:LINE:COLUMN: severity: MESSAGE (at POINTER) [CODE]`:
/// the one format `validate`, `match` and the server's start-up and reload reports share.
public enum DiagnosticLines {
    public static func render(_ diagnostics: [Diagnostic], path: String, includeInfo: Bool = false) -> String {
        var out = ""
        for diagnostic in diagnostics where includeInfo || diagnostic.severity != .info {
            out += "\(path):\(diagnostic.location.line):\(diagnostic.location.column): \(diagnostic.severity.rawValue): "
                + "\(diagnostic.messageWithPointer) [\(diagnostic.code.rawValue)]\n"
        }
        return out
    }
}
