import AASASites
import AssociationKit
import Foundation

/// What `validate` prints: compiler-style lines and a summary, or one JSON document.
struct ValidationOutput {
    var results: [FileCheck]
    var unreadable: [(path: String, reason: String)]
    /// About the folders rather than a file's content (a misnamed file, a link not followed).
    var warnings: [LoadProblem]
    var verbose: Bool
    /// `--strict`: warnings fail the run (exit 1), for CI.
    var strict = false

    /// Every error line printed: diagnostics, omitted ones, and one per unreadable path.
    var errorCount: Int {
        results.reduce(unreadable.count + warnings.filter { $0.severity == .error }.count) {
            $0 + $1.diagnostics.filter { $0.severity == .error }.count + $1.omitted.errors
        }
    }
    var warningCount: Int {
        // Folder problems are warnings but for a `site.json` that cannot be used (`SITE012`).
        results.reduce(warnings.filter { $0.severity != .error }.count) {
            $0 + $1.diagnostics.filter { $0.severity == .warning }.count + $1.omitted.warnings
        }
    }

    /// Under `--strict`, whether warnings fail a run that has no error.
    var failsStrict: Bool { strict && warningCount > 0 }

    /// The severity printed in CI forms: under `--strict` a warning fails the run, so it is shown as
    /// an error there (GitHub annotations, SARIF levels) where it would otherwise pass unnoticed.
    func reportedSeverity(_ severity: Severity) -> Severity {
        strict && severity == .warning ? .error : severity
    }

    /// `PATH:LINE:COLUMN: error|warning: MESSAGE (at POINTER) [CODE]`, then a summary line.
    func text() -> String {
        var out = ""
        for result in results where result.readError == nil {
            out += DiagnosticLines.render(
                result.diagnostics, path: result.path, omitted: result.omitted, includeInfo: verbose)
        }
        out += warnings.map { $0.rendered + "\n" }.joined()
        for (path, reason) in unreadable {
            out += "\(path): error: \(reason)\n"
        }
        return out + summaryLine
    }

    /// `2 files checked: 1 invalid, 1 unreadable; 2 errors, 0 warnings`. Invalid and
    /// unreadable files are both counted; a file that could not be read counts once.
    var summaryLine: String {
        let unreadablePaths = Set(unreadable.map(\.path))
        let checked = Set(results.map(\.path)).union(unreadablePaths).count
        let invalid = results.filter { !$0.isValid && !unreadablePaths.contains($0.path) }.count
        let withWarnings =
            results.filter { result in
                result.isValid && !unreadablePaths.contains(result.path)
                    && (result.omitted.warnings > 0 || result.diagnostics.contains { $0.severity == .warning })
            }.count
        let verdict = [
            invalid > 0 ? "\(invalid) invalid" : nil, unreadable.isEmpty ? nil : "\(unreadable.count) unreadable",
            strict && withWarnings > 0 ? "\(withWarnings) failing --strict (warnings)" : nil,
            failsStrict && withWarnings == 0 && invalid == 0 ? "failing --strict (folder warnings)" : nil,
        ].compactMap { $0 }
        return "\(plural(checked, "file")) checked: \(verdict.isEmpty ? "valid" : verdict.joined(separator: ", ")); "
            + "\(plural(errorCount, "error")), \(plural(warningCount, "warning"))\n"
    }

    func jsonText() -> String {
        struct DiagnosticJSON: Encodable {
            var code, severity, message, pointer: String
            var line, column: Int
        }
        struct FileJSON: Encodable {
            var path, kind: String
            var bytes: Int
            var valid: Bool
            var readError: String?
            var diagnostics: [DiagnosticJSON]
            /// Diagnostics past the per-file limit, counted and not listed.
            var omitted: Int
        }
        struct Document: Encodable {
            var valid: Bool
            /// `--strict` given; `passed` is then false on any warning (the exit status says the same).
            var strict: Bool
            var passed: Bool
            var errors, warnings: Int
            var files: [FileJSON]
        }
        var files = results.map { result in
            FileJSON(
                path: result.path, kind: result.kind.rawValue,
                bytes: result.byteCount, valid: result.isValid, readError: result.readError,
                diagnostics: result.diagnostics.map {
                    DiagnosticJSON(
                        code: $0.code.rawValue, severity: $0.severity.rawValue, message: $0.message,
                        pointer: $0.pointer,
                        line: $0.location.line, column: $0.location.column)
                }, omitted: result.omitted.count)
        }
        for (path, reason) in unreadable where !files.contains(where: { $0.path == path }) {
            files.append(
                FileJSON(
                    path: path, kind: "unknown", bytes: 0, valid: false, readError: reason, diagnostics: [], omitted: 0)
            )
        }
        let valid = unreadable.isEmpty && results.allSatisfy(\.isValid)
        let document = Document(
            valid: valid, strict: strict, passed: valid && !failsStrict, errors: errorCount,
            warnings: warningCount, files: files)
        return JSONOutput.encode(document) + "\n"
    }

    func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
