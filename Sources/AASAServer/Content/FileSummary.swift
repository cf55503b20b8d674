import AASASites
import AASASystem
import AssociationKit

/// One site file as a snapshot keeps it: its kind, validity, size and stat(2) identity. The
/// full check (diagnostics, read error) is kept only for a file with a warning or an error,
/// for a signed file (its signature's notes cannot be found again from its content) and for
/// a file with notes that is not served (`fallback.json`, `expectations.json`), so
/// the common clean file costs a few dozen bytes; its notes, if any, are found again from the
/// served bytes when the status page shows them (docs/serving.md, "Many sites").
public struct FileSummary: Sendable {
    /// A check with findings, without the file's bytes and decoded content.
    final class Findings: Sendable {
        let check: FileCheck

        init(_ check: FileCheck) {
            self.check = check.summary
        }
    }

    /// What few files have: a `well-known/` file's name, `security.txt`'s `Expires`. Apart, so
    /// the common file's summary grows by one word, not three.
    final class Detail: Sendable {
        let name: String?
        let expires: Int?

        init(name: String?, expires: Int?) {
            (self.name, self.expires) = (name, expires)
        }
    }

    public let kind: FileCheck.Kind
    public let isValid: Bool
    public let byteCount: Int
    /// The file's stat(2) when it was read: a reload reads it again only when this changed.
    public let status: FileStatus?
    private let findings: Findings?
    private let detail: Detail?

    init(_ check: FileCheck) {
        kind = check.kind
        let name = check.kind == .wellKnownFolder ? check.name : nil
        detail = name == nil && check.expires == nil ? nil : Detail(name: name, expires: check.expires)
        isValid = check.isValid
        byteCount = check.byteCount
        status = check.status
        // A file that is not served (fallback.json, expectations.json) keeps its notes: no bytes
        // are left to find them again from.
        let unserved = !check.kind.file.isServed && check.kind != .wellKnownFolder && !check.diagnostics.isEmpty
        findings = check.isClean && check.signedContent == nil && !unserved ? nil : Findings(check)
    }

    /// Its name in the site folder (`FileCheck.name`): the kind's, or `well-known/NAME`.
    public var name: String { detail?.name ?? kind.rawValue }
    /// `security.txt`'s `Expires`, seconds since the epoch (the metric and the status page
    /// count down to it).
    public var expires: Int? { detail?.expires }
    /// Seconds since the epoch.
    public var modified: Int { status?.modifiedSeconds ?? 0 }
    /// Nothing to report but notes.
    public var isClean: Bool { findings?.check.isClean ?? true }
    public var problems: [LoadProblem] { findings?.check.problems ?? [] }
    /// The diagnostics kept (notes included): those of a file with warnings or errors, of a
    /// signed file or of a file not served; nil for a clean served file that is not signed, whose
    /// notes are found again from its bytes.
    public var diagnostics: [Diagnostic]? { findings?.check.diagnostics }
    public var omitted: OmittedDiagnostics { findings?.check.omitted ?? OmittedDiagnostics() }
    public var readError: String? { findings?.check.readError }
}
