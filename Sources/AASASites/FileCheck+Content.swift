import AssociationKit

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
        _ content: [UInt8], as kind: Kind, signing: SignedFileContext? = nil
    ) -> ContentReport {
        switch kind {
        case .apple:
            let report =
                signing.map { AssociationFileValidator.validate(content, signed: $0) }
                ?? AssociationFileValidator.validate(content)
            return ContentReport(
                diagnostics: report.diagnostics, omitted: report.omitted, isValid: report.isValid,
                json: report.content ?? content)
        case .android:
            let report = AssetLinksValidator.validate(content)
            return ContentReport(
                diagnostics: report.diagnostics, omitted: report.omitted, isValid: report.isValid, json: content)
        case .webauthn:
            let report = PasskeyValidator.validateWebAuthn(content, suffixes: PublicSuffixListFile.system)
            return ContentReport(
                diagnostics: report.diagnostics, omitted: report.omitted, isValid: report.isValid, json: content)
        case .passkeyEndpoints:
            let report = PasskeyValidator.validateEndpoints(content)
            return ContentReport(
                diagnostics: report.diagnostics, omitted: report.omitted, isValid: report.isValid, json: content)
        case .fallback:
            let report = FallbackValidator.validate(content)
            let valid = report.file != nil && !report.diagnostics.hasErrors && report.omitted.errors == 0
            return ContentReport(
                diagnostics: report.diagnostics, omitted: report.omitted, isValid: valid, json: content)
        case .expectations:
            // Alone: without the site's files, a promise is checked for its form only.
            let report = ExpectationChecker.check(content, apple: nil, android: nil, domain: nil)
            return ContentReport(
                diagnostics: report.diagnostics, omitted: report.omitted,
                isValid: !report.diagnostics.hasErrors && report.omitted.errors == 0, json: content)
        }
    }
}
