extension AssociationFileValidator {
    /// A signer certificate this close to its end gets SIG008.
    static let signerExpiryWarning = 30 * 86_400

    /// Validates a file that may be CMS-signed (docs/association-files.md, "Signed files"):
    /// plain JSON as `validate(_:)` does; a signed file's content as the file, with positions
    /// in the content, the size limit on the bytes sent, and the signature's findings.
    public static func validate(_ bytes: [UInt8], signed context: SignedFileContext) -> ValidationReport {
        guard let encoding = SignedEnvelope.encoding(of: bytes) else { return validate(bytes) }
        guard let envelope = context.reader.open(bytes) else {
            let reason =
                "CMS SignedData (\(encoding.rawValue)) that cannot be read: damaged, not SignedData, or this build "
                + "has no CMS reader"
            let diagnostic = Diagnostic(.signedUnreadable, reason, at: .start, pointer: "")
            return ValidationReport(
                file: nil, diagnostics: [diagnostic], omitted: OmittedDiagnostics(), byteCount: bytes.count)
        }
        guard let content = envelope.content else {
            let diagnostic = Diagnostic(
                .signedUnreadable, "the signature is detached: the SignedData carries no content to read", at: .start,
                pointer: "")
            var report = ValidationReport(
                file: nil, diagnostics: [diagnostic], omitted: OmittedDiagnostics(), byteCount: bytes.count)
            report.envelope = envelope
            return report
        }
        var report = validate(content, sentSize: bytes.count)
        var found = signatureDiagnostics(envelope, context: context)
        if report.file == nil && !report.diagnostics.contains(where: { $0.code == .fileTooLarge }) {
            found.append(
                Diagnostic(
                    .signedContentNotJSON, "the signed content is not JSON, so Apple cannot read the file", at: .start,
                    pointer: ""))
        }
        report.diagnostics = (found + report.diagnostics).sortedByLocation()
        report.envelope = envelope
        report.content = content
        report.byteCount = bytes.count
        return report
    }

    /// The note every signed file gets, then what is wrong with its signature and signer.
    static func signatureDiagnostics(_ envelope: SignedEnvelope, context: SignedFileContext) -> [Diagnostic] {
        func at(_ code: DiagnosticCode, _ message: String) -> Diagnostic {
            Diagnostic(code, message, at: .start, pointer: "")
        }
        let expiry = envelope.signer.map { " (\(CalendarDay.format($0.notAfter)))" } ?? ""
        var found = [
            at(
                .signedFile,
                "a CMS-signed file (\(envelope.encoding.rawValue)), the format iOS 8 required: iOS 9 and later read "
                    + "the plain JSON over HTTPS without a signature, and this one stops working when the signing "
                    + "certificate expires\(expiry); `aasa-server unsign` writes the JSON to serve instead")
        ]
        if case .failed(let reason) = envelope.signature {
            found.append(
                at(.signatureInvalid, "the signature does not verify (\(reason)); Apple rejects the file"))
        }
        if case .untrusted(let reason) = envelope.trust {
            let subject = envelope.signer.map { " (\($0.subject))" } ?? ""
            found.append(
                at(
                    .signerUntrusted,
                    "the signer certificate\(subject) does not chain to a trusted root (\(reason)); Apple accepts "
                        + "only a certificate from a CA its devices trust"))
        }
        guard let signer = envelope.signer else { return found }
        if signer.notAfter <= context.now {
            found.append(
                at(
                    .signerExpired,
                    "the signer certificate (\(signer.subject)) expired on \(CalendarDay.format(signer.notAfter)); "
                        + "Apple rejects the file: sign it again, or serve the JSON (`aasa-server unsign`)"))
        } else if signer.notBefore > context.now {
            found.append(
                at(
                    .signerExpired,
                    "the signer certificate (\(signer.subject)) is not valid before "
                        + "\(CalendarDay.format(signer.notBefore)); Apple rejects the file until then"))
        } else if signer.notAfter - context.now < signerExpiryWarning {
            let days = (signer.notAfter - context.now) / 86_400
            found.append(
                at(
                    .signerExpiresSoon,
                    "the signer certificate (\(signer.subject)) expires on \(CalendarDay.format(signer.notAfter)), "
                        + "in \(days) days; the file stops working then: serve the JSON (`aasa-server unsign`)"))
        }
        if let domain = context.domain, !signer.names(domain) {
            let names = signer.names.isEmpty ? "no host" : signer.names.joined(separator: ", ")
            found.append(
                at(
                    .signerWrongName,
                    "the signer certificate names \(names), not \(domain); Apple requires the certificate of the "
                        + "domain the file is served for"))
        }
        return found
    }
}
