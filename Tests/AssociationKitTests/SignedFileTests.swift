import Testing

@testable import AssociationKit

/// A CMS-signed file judged from what a reader found (the reader itself is OpenSSL's, tested
/// with real `openssl cms -sign` files in CommandLineTests): every SIG code both ways.
@Suite("Signed files: every SIG code both ways")
struct SignedFileTests {
    static let now = 1_800_000_000
    static let json = Array(ValidatorTests.file().utf8)
    /// The start of a DER ContentInfo naming id-signedData: enough for the recognizer; the
    /// injected reader decides the rest.
    static let der: [UInt8] = [0x30, 0x80, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02, 0xA0]
    static let signer = SignerCertificate(
        subject: "example.com", names: ["example.com"], notBefore: now - 86_400, notAfter: now + 90 * 86_400)

    static func envelope(
        content: [UInt8]? = json, signature: SignedEnvelope.Signature = .verified,
        trust: SignedEnvelope.Trust = .trusted, signer: SignerCertificate? = signer
    ) -> SignedEnvelope {
        SignedEnvelope(encoding: .der, content: content, signature: signature, trust: trust, signer: signer)
    }

    static func signer(names: [String] = ["example.com"], notBefore: Int = now - 86_400, daysLeft: Int)
        -> SignerCertificate
    {
        SignerCertificate(
            subject: names.first ?? "", names: names, notBefore: notBefore, notAfter: now + daysLeft * 86_400)
    }

    /// The bytes and what the reader makes of them.
    struct Input: Sendable {
        var bytes: [UInt8]
        var envelope: SignedEnvelope?

        func validate(domain: String? = "example.com") -> ValidationReport {
            let envelope = envelope
            let reader = SignedFileReader { _ in envelope }
            return AssociationFileValidator.validate(
                bytes, signed: SignedFileContext(reader: reader, domain: domain, now: SignedFileTests.now))
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var code: DiagnosticCode
        var triggering: Input
        var clean: Input
        var testDescription: String { code.rawValue }
    }

    static func signed(_ envelope: SignedEnvelope?) -> Input { Input(bytes: der, envelope: envelope) }

    static let cases: [Case] = [
        Case(code: .signedFile, triggering: signed(envelope()), clean: Input(bytes: json, envelope: envelope())),
        Case(
            code: .signatureInvalid, triggering: signed(envelope(signature: .failed("content verify error"))),
            clean: signed(envelope())),
        Case(
            code: .signerUntrusted, triggering: signed(envelope(trust: .untrusted("unable to get local issuer"))),
            clean: signed(envelope())),
        Case(
            code: .signerExpired, triggering: signed(envelope(signer: signer(daysLeft: -1))),
            clean: signed(envelope(signer: signer(daysLeft: 31)))),
        Case(
            code: .signerWrongName, triggering: signed(envelope(signer: signer(names: ["other.com"], daysLeft: 90))),
            clean: signed(envelope(signer: signer(names: ["*.com", "example.com"], daysLeft: 90)))),
        Case(
            code: .signedContentNotJSON, triggering: signed(envelope(content: Array("<plist/>".utf8))),
            clean: signed(envelope())),
        Case(code: .signedUnreadable, triggering: signed(nil), clean: signed(envelope())),
        Case(
            code: .signerExpiresSoon, triggering: signed(envelope(signer: signer(daysLeft: 29))),
            clean: signed(envelope(signer: signer(daysLeft: 31)))),
    ]

    @Test("every SIG code is covered by this table")
    func everyCodeIsCovered() {
        let covered = Set(Self.cases.map(\.code))
        let missing = DiagnosticCode.allCases.filter { $0.isAboutSignature && !covered.contains($0) }
        #expect(missing.isEmpty, "no case for \(missing.map(\.rawValue))")
    }

    @Test("the code is reported with its severity on the triggering file", arguments: cases)
    func triggers(_ example: Case) {
        let found = example.triggering.validate().diagnostics.filter { $0.code == example.code }
        #expect(!found.isEmpty, "\(example.code.rawValue) not reported")
        #expect(found.allSatisfy { $0.severity == example.code.severity })
    }

    @Test("the code is not reported on the clean file", arguments: cases)
    func doesNotTrigger(_ example: Case) {
        let report = example.clean.validate()
        #expect(
            !report.diagnostics.contains { $0.code == example.code }, "\(report.diagnostics.map(\.messageWithPointer))")
    }

    @Test("a good signed file is valid, decodes as its content, and carries one note")
    func goodFile() {
        let report = Self.signed(Self.envelope()).validate()
        #expect(report.isValid)
        #expect(report.diagnostics.filter(\.code.isAboutSignature).map(\.code) == [.signedFile])
        #expect(report.content == Self.json)
        #expect(report.file?.appLinks?.details.count == 1)
        #expect(report.diagnostics[0].isShown(withNotes: false))
    }

    @Test("a detached signature, no signer certificate, a certificate not yet valid, no domain")
    func otherFailures() {
        #expect(Self.signed(Self.envelope(content: nil)).validate().diagnostics.map(\.code) == [.signedUnreadable])
        let noSigner = Self.signed(Self.envelope(trust: .untrusted("no signer certificate"), signer: nil)).validate()
        #expect(noSigner.diagnostics.filter(\.code.isAboutSignature).map(\.code) == [.signedFile, .signerUntrusted])
        let early = Self.signed(Self.envelope(signer: Self.signer(notBefore: Self.now + 10, daysLeft: 90)))
        #expect(early.validate().diagnostics.map(\.code).contains(.signerExpired))
        // Outside a site folder the name is not checked.
        let named = Self.signed(Self.envelope(signer: Self.signer(names: ["other.com"], daysLeft: 90)))
        #expect(!named.validate(domain: nil).diagnostics.map(\.code).contains(.signerWrongName))
    }

    @Test("positions are in the content: a trailing comma on line 2")
    func positionsInContent() throws {
        let content = Array("{\"applinks\": {\"details\": [],\n  \"apps\": [],}}".utf8)
        let report = Self.signed(Self.envelope(content: content)).validate()
        let comma = try #require(report.diagnostics.first { $0.code == .jsonTrailingComma })
        #expect(comma.location.line == 2)
        #expect(comma.location.column == 13)
    }

    @Test("the size limit applies to the bytes sent, not only the content")
    func sizeOfWhatIsSent() {
        let big = Self.der + [UInt8](repeating: 0, count: AssociationFileValidator.maximumSize)
        let report = Input(bytes: big, envelope: Self.envelope()).validate()
        #expect(report.diagnostics.map(\.code).contains(.fileTooLarge))
        #expect(report.byteCount == big.count)
    }

    @Test(
        "recognizing CMS without reading it",
        arguments: [
            (der, SignedEnvelope.Encoding.der), (Array("\n-----BEGIN PKCS7-----\nMIIB".utf8), .pem),
            (Array("-----BEGIN CMS-----\n".utf8), .pem), (Array("-----BEGIN CERTIFICATE-----".utf8), nil),
            (json, nil), ([0x30], nil), ([0x30, 0x82, 0x01, 0x00, 0x02, 0x01, 0x01], nil), ([], nil),
        ] as [([UInt8], SignedEnvelope.Encoding?)])
    func recognizes(_ bytes: [UInt8], _ expected: SignedEnvelope.Encoding?) {
        #expect(SignedEnvelope.encoding(of: bytes) == expected)
    }

    @Test(
        "a signer certificate names a host exactly or by a one-label wildcard",
        arguments: [
            (["example.com"], "example.com", true), (["*.example.com"], "a.example.com", true),
            (["*.example.com"], "a.b.example.com", false), (["*.example.com"], "example.com", false),
            (["*.example.com"], "*.example.com", true), (["a.example.com"], "*.example.com", false),
            ([], "example.com", false),
        ])
    func names(_ names: [String], _ host: String, _ expected: Bool) {
        #expect(SignerCertificate(subject: "", names: names, notBefore: 0, notAfter: 0).names(host) == expected)
    }

    @Test(
        "calendar days without Foundation",
        arguments: [
            (0, "1970-01-01"), (951_782_400, "2000-02-29"), (1_735_689_599, "2024-12-31"), (-1, "1969-12-31"),
            (4_107_542_400, "2100-03-01"),
        ])
    func calendarDay(_ seconds: Int, _ expected: String) {
        #expect(CalendarDay.format(seconds) == expected)
    }

    @Test("without a CMS reader a signed file is recognized and refused, not read as bad JSON")
    func unavailableReader() {
        let report = AssociationFileValidator.validate(
            Self.der, signed: SignedFileContext(reader: .unavailable, now: Self.now))
        #expect(report.diagnostics.map(\.code) == [.signedUnreadable])
        #expect(SignedFileReader.unavailable.json(Self.der) == Self.der)
    }
}
