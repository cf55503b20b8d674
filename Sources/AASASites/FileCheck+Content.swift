import AssociationKit
import Foundation

extension FileCheck {
    /// What a served file's bytes say on their own, by the validator of their kind: the probe's,
    /// the status page's and check-app's question (a site's load asks the same validators, with
    /// the folder's other files beside them).
    public struct ContentReport {
        public var diagnostics: [Diagnostic]
        public var omitted: OmittedDiagnostics
        public var isValid: Bool
        /// The JSON a signed Apple file wraps; the bytes themselves for every other file.
        public var json: [UInt8]
    }

    /// `content` checked as `kind`; a signed Apple file
    /// is read with `signing`, and without it only an unsigned one is valid.
    public static func check(
        _ content: [UInt8], as kind: Kind, signing: SignedFileContext? = nil, name: String? = nil
    ) -> ContentReport {
        // Alone: without the site's files, an expectation is checked for its form only.
        let input = WellKnownFile.Input(
            content: content, name: name ?? kind.rawValue, signing: signing,
            now: signing?.now ?? Int(Date().timeIntervalSince1970))
        let report = kind.file.validate(input)
        return ContentReport(
            diagnostics: report.diagnostics, omitted: report.omitted, isValid: report.isValid,
            json: report.signedContent ?? content)
    }
}
