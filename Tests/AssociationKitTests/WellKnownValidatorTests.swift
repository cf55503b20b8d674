import Testing

@testable import AssociationKit

/// The checks of the well-known files that are not JSON: every SEC and WKN code on a file that
/// triggers it and on one that does not, and the dates `Expires` takes.
@Suite("security.txt and the other well-known files")
struct WellKnownValidatorTests {
    /// 2026-11-27T00:00:00Z.
    static let now = 1_795_737_600
    static let good = """
        # Our policy
        Contact: mailto:security@example.com
        Contact: https://example.com/security
        Expires: 2027-06-30T23:00:00Z
        Preferred-Languages: en, fr
        Policy: https://example.com/security/policy

        """

    static func codes(_ text: String) -> [String] {
        SecurityTxtValidator.validate(Array(text.utf8), now: now, limit: 131_072).diagnostics.map(\.code.rawValue)
    }

    @Test("a complete file is clean, with LF or CRLF lines, and its Expires is read")
    func clean() {
        #expect(Self.codes(Self.good).isEmpty)
        #expect(Self.codes(Self.good.replacingOccurrences(of: "\n", with: "\r\n")).isEmpty)
        let report = SecurityTxtValidator.validate(Array(Self.good.utf8), now: Self.now, limit: 131_072)
        #expect(report.expires == RFC3339Date.seconds("2027-06-30T23:00:00Z"))
        #expect(report.isValid)
    }

    static let securityCases = [
        ("Expires: 2027-06-30T23:00:00Z\n", "SEC001"),
        ("Contact: mailto:a@example.com\n", "SEC002"),
        ("Contact: mailto:a@example.com\nExpires: 2027-06-30T23:00:00Z\nExpires: 2027-07-30T23:00:00Z\n", "SEC003"),
        ("Contact: mailto:a@example.com\nExpires: 2026-01-01T00:00:00Z\n", "SEC004"),
        ("Contact: mailto:a@example.com\nExpires: 2026-12-10T00:00:00Z\n", "SEC005"),
        ("Contact: mailto:a@example.com\nExpires: next year\n", "SEC006"),
        ("Contact: mailto:a@example.com\nExpires: 2027-02-30T00:00:00Z\n", "SEC006"),
        ("Contact: mailto:a@example.com\nExpires: 2027-06-30T23:00:00Z\nBounty: yes\n", "SEC007"),
        ("Contact: mailto:a@example.com\nExpires: 2027-06-30T23:00:00Z\njust a line\n", "SEC008"),
        ("Contact: security at example.com\nExpires: 2027-06-30T23:00:00Z\n", "SEC009"),
        ("Contact: http://example.com/security\nExpires: 2027-06-30T23:00:00Z\n", "SEC009"),
        ("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nContact: mailto:a@example.com\n", "SEC010"),
        ("Contact: mailto:a@example.com\nExpires: 2027-06-30T23:00:00Z\n\u{01}\n", "SEC011"),
    ]

    @Test("each code on a file that has the problem", arguments: securityCases)
    func codes(_ text: String, _ code: String) {
        #expect(Self.codes(text).contains(code), "\(Self.codes(text))")
    }

    @Test("every SEC and WKN code has a case here")
    func everyCodeIsCovered() {
        let text = Self.securityCases.map(\.1) + ["WKN001", "WKN002", "WKN003", "WKN004"]
        let missing = DiagnosticCode.allCases.filter {
            ($0.rawValue.hasPrefix("SEC") || $0.rawValue.hasPrefix("WKN")) && !text.contains($0.rawValue)
        }
        #expect(missing.isEmpty, "no case for \(missing.map(\.rawValue))")
    }

    @Test("severities: past is an error, within 30 days a warning, an unknown field a note")
    func severities() {
        #expect(DiagnosticCode.securityTxtExpired.severity == .error)
        #expect(DiagnosticCode.securityTxtExpiresSoon.severity == .warning)
        #expect(DiagnosticCode.securityTxtUnknownField.severity == .info)
        #expect(DiagnosticCode.wellKnownUnregistered.severity == .info)
        let soon = SecurityTxtValidator.validate(
            Array("Contact: mailto:a@example.com\nExpires: 2026-12-10T00:00:00Z\n".utf8), now: Self.now,
            limit: 131_072)
        #expect(soon.isValid)
        let past = SecurityTxtValidator.validate(
            Array("Contact: mailto:a@example.com\nExpires: 2026-01-01T00:00:00+01:00\n".utf8), now: Self.now,
            limit: 131_072)
        #expect(!past.isValid)
        #expect(past.diagnostics.first?.location.line == 2)
    }

    @Test("an OpenPGP cleartext signature is read inside its frame, dash-escapes removed")
    func signed() {
        let signed = """
            -----BEGIN PGP SIGNED MESSAGE-----
            Hash: SHA512

            Contact: mailto:security@example.com
            - Expires: 2027-06-30T23:00:00Z
            -----BEGIN PGP SIGNATURE-----

            iQIzBAEBCgAdFiEE
            -----END PGP SIGNATURE-----

            """
        #expect(Self.codes(signed).isEmpty, "\(Self.codes(signed))")
        let unframed = Self.codes(signed.replacingOccurrences(of: "-----END PGP SIGNATURE-----\n", with: ""))
        #expect(unframed.contains("SEC010"), "\(unframed)")
    }

    @Test(
        "RFC 3339 dates",
        arguments: [
            ("1970-01-01T00:00:00Z", 0), ("2027-06-30T23:00:00Z", 1_814_396_400),
            ("2027-06-30T23:00:00.123z", 1_814_396_400), ("2027-07-01T01:00:00+02:00", 1_814_396_400),
            ("2024-02-29t12:00:00-00:30", 1_709_209_800),
        ])
    func dates(_ text: String, _ seconds: Int) {
        #expect(RFC3339Date.seconds(text) == seconds)
    }

    @Test(
        "not RFC 3339 dates",
        arguments: [
            "2027-06-30", "2027-06-30 23:00:00Z", "2027-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2027-06-30T23:00:00",
            "2027-06-30T24:00:00Z", "2027-06-30T23:00:00+0100", "",
        ])
    func notDates(_ text: String) {
        #expect(RFC3339Date.seconds(text) == nil)
    }

    @Test(
        "the Apple Pay file: text, not empty, at most its limit",
        arguments: [
            ("7B227073704964223A2237304446", [String]()), ("", ["WKN001"]), (" \n", ["WKN001"]),
            ("7B22\u{00}7073", ["WKN002"]), (String(repeating: "A", count: 65_537), ["WKN003"]),
        ])
    func applePay(_ text: String, _ expected: [String]) {
        let report = PlainTextValidator.validateText(Array(text.utf8), limit: 65_536, name: "apple-pay")
        #expect(report.diagnostics.map(\.code.rawValue) == expected)
        #expect(report.isValid == expected.isEmpty)
    }

    @Test("bytes that are not UTF-8 are not text")
    func notUTF8() {
        #expect(PlainTextValidator.firstNonText([0x41, 0xC3, 0xA9, 0x42]) == nil)
        #expect(PlainTextValidator.firstNonText([0x41, 0xC3, 0x28]) == 1)
        #expect(PlainTextValidator.firstNonText([0xED, 0xA0, 0x80]) == 0)
        #expect(PlainTextValidator.firstNonText([0x41, 0xF0, 0x9F, 0x98]) == 1)
    }

    @Test("a well-known/ file: a note when its name is not registered, an error past its size")
    func folderFiles() {
        #expect(PlainTextValidator.validateFolderFile([], limit: 10, name: "gpc.json").diagnostics.isEmpty)
        let unknown = PlainTextValidator.validateFolderFile([], limit: 10, name: "my-thing")
        #expect(unknown.diagnostics.map(\.code) == [.wellKnownUnregistered] && unknown.isValid)
        let large = PlainTextValidator.validateFolderFile(Array(repeating: 0, count: 11), limit: 10, name: "nodeinfo")
        #expect(large.diagnostics.map(\.code) == [.wellKnownTooLarge] && !large.isValid)
    }
}
