import Foundation
import Testing

@testable import AssociationKit

/// The passkey files (`webauthn`, `passkey-endpoints`): every WAN code on a file that triggers it
/// and on one that does not, the origins' labels counted with the system's Public Suffix List,
/// and the notes on what one platform lacks.
@Suite("passkey files")
struct PasskeyTests {
    /// Debian's copy, as the server reads it (`.ci/run` installs the publicsuffix package).
    static let list = PublicSuffixList(
        text: (try? String(contentsOfFile: "/usr/share/publicsuffix/public_suffix_list.dat", encoding: .utf8)) ?? "")

    static func webauthn(_ text: String) -> PasskeyValidator.Report<WebAuthnFile> {
        PasskeyValidator.validateWebAuthn(Array(text.utf8), suffixes: .success(list))
    }

    static func endpoints(_ text: String) -> PasskeyValidator.Report<PasskeyEndpoints> {
        PasskeyValidator.validateEndpoints(Array(text.utf8))
    }

    static func origins(_ origins: String...) -> String {
        #"{"origins": ["# + origins.map { "\"\($0)\"" }.joined(separator: ", ") + "]}"
    }

    static let good = origins("https://example.com", "https://shop.example.co.uk", "https://example.de:8443")
    static let goodEndpoints =
        #"{"enroll": "https://example.com/passkeys/new", "manage": "https://example.com/account"}"#

    /// (code, a file that triggers it, a near file that does not), for `webauthn`.
    static let webauthnCases: [(DiagnosticCode, String, String)] = [
        (.passkeyNotObject, #"["https://example.com"]"#, good),
        (.webauthnNoOrigins, #"{"origins": []}"#, good),
        (.webauthnNoOrigins, #"{}"#, good),
        (.passkeyWrongType, #"{"origins": "https://example.com"}"#, good),
        (.passkeyWrongType, #"{"origins": [42]}"#, good),
        (.webauthnInvalidOrigin, origins("https://example.com/"), origins("https://example.com")),
        (.webauthnInvalidOrigin, origins("https://example.com/login"), good),
        (.webauthnInvalidOrigin, origins("https://example.com?x=1"), good),
        (.webauthnInvalidOrigin, origins("https://example.com#x"), good),
        (.webauthnInvalidOrigin, origins("https://user@example.com"), good),
        (.webauthnInvalidOrigin, origins("example.com"), good),
        (.webauthnInvalidOrigin, origins("https://bücher.example"), origins("https://xn--bcher-kva.example")),
        (.webauthnInsecureOrigin, origins("http://example.com"), origins("http://localhost:8080")),
        (.webauthnInsecureOrigin, origins("ftp://example.com"), good),
        (.webauthnDuplicateOrigin, origins("https://example.com", "https://EXAMPLE.com:443"), good),
        (
            .webauthnTooManyLabels,
            origins(
                "https://a.com", "https://b.com", "https://c.com", "https://d.com", "https://e.com", "https://f.com"),
            origins(
                "https://a.com", "https://b.com", "https://c.com", "https://d.com", "https://e.com", "https://a.co.uk",
                "https://www.b.de", "https://shop.c.com.au")
        ),
        // github.io is a suffix of the list's private section: each user is a label of its own.
        (
            .webauthnTooManyLabels,
            origins(
                "https://a.github.io", "https://b.github.io", "https://c.github.io", "https://d.github.io",
                "https://e.github.io", "https://f.github.io"),
            origins(
                "https://a.github.io", "https://x.a.github.io", "https://b.github.io", "https://c.github.io",
                "https://d.github.io", "https://e.github.io")
        ),
        (.webauthnNoRegistrableDomain, origins("https://co.uk"), origins("https://example.co.uk")),
        (.webauthnNoRegistrableDomain, origins("https://github.io"), origins("https://example.github.io")),
        (.webauthnNoRegistrableDomain, origins("https://192.0.2.1"), good),
        (.webauthnNoRegistrableDomain, origins("https://[2001:db8::1]"), good),
        (.passkeyUnknownKey, #"{"origins": ["https://example.com"], "orgins": []}"#, good),
        (.jsonTrailingComma, #"{"origins": ["https://example.com",]}"#, good),
    ]

    /// The same for `passkey-endpoints`.
    static let endpointCases: [(DiagnosticCode, String, String)] = [
        (.passkeyNotObject, #""https://example.com""#, goodEndpoints),
        (.passkeyWrongType, #"{"enroll": 1}"#, goodEndpoints),
        (.passkeyEndpointInvalidURL, #"{"enroll": "/passkeys/new"}"#, goodEndpoints),
        (.passkeyEndpointInvalidURL, #"{"manage": "http://example.com/account"}"#, goodEndpoints),
        (.passkeyEndpointsEmpty, #"{}"#, #"{"manage": "https://example.com/account"}"#),
        (.passkeyUnknownKey, #"{"enroll": "https://example.com/a", "mange": "https://example.com/b"}"#, goodEndpoints),
    ]

    @Test(
        "each webauthn code is reported on its triggering file and not on the near clean one", arguments: webauthnCases)
    func webauthnCode(code: DiagnosticCode, bad: String, clean: String) {
        #expect(Self.webauthn(bad).diagnostics.contains { $0.code == code }, "\(code.rawValue) on \(bad)")
        let report = Self.webauthn(clean)
        #expect(!report.diagnostics.contains { $0.code == code }, "\(code.rawValue) on \(clean)")
        #expect(report.isValid, "\(report.diagnostics)")
    }

    @Test("each passkey-endpoints code is reported on its triggering file only", arguments: endpointCases)
    func endpointCode(code: DiagnosticCode, bad: String, clean: String) {
        #expect(Self.endpoints(bad).diagnostics.contains { $0.code == code }, "\(code.rawValue) on \(bad)")
        let report = Self.endpoints(clean)
        #expect(report.isValid && !report.diagnostics.contains { $0.code == code }, "\(report.diagnostics)")
    }

    @Test("every WAN code is in a table here")
    func everyCodeTested() {
        let tested = Set((Self.webauthnCases + Self.endpointCases).map(\.0) + Self.agreementCodes)
            .union([.publicSuffixListUnavailable])
        for code in DiagnosticCode.allCases where code.rawValue.hasPrefix("WAN") {
            #expect(tested.contains(code), "\(code.rawValue) has no case")
        }
    }

    @Test("a diagnostic names line, column and pointer; the sixth label is an error on its origin")
    func positions() throws {
        let text =
            "{\n  \"origins\": [\n    \"https://a.com\", \"https://b.com\", \"https://c.com\",\n"
            + "    \"https://d.com\", \"https://e.com\",\n    \"https://www.a.com\", \"https://f.co.uk\"\n  ]\n}"
        let report = Self.webauthn(text)
        let problem = try #require(report.diagnostics.first { $0.code == .webauthnTooManyLabels })
        #expect(problem.severity == .error && !report.isValid)
        #expect((problem.location.line, problem.location.column) == (5, 26))
        #expect(problem.pointer == "/origins/6")
        #expect(problem.message.contains("\"f\"") && problem.message.contains("a, b, c, d, e"))
    }

    @Test("without the Public Suffix List the labels are not counted, and that is said, not guessed")
    func listUnavailable() {
        let report = PasskeyValidator.validateWebAuthn(
            Array(Self.good.utf8), suffixes: .failure(PublicSuffixList.Unavailable(reason: "the list is missing")))
        #expect(report.diagnostics.map(\.code) == [.publicSuffixListUnavailable])
        #expect(report.diagnostics.first?.message.contains("the list is missing") == true)
        #expect(report.isValid)
    }

    @Test(
        "the registrable domain and label by the list: multi-label, private, wildcard and exception rules",
        arguments: [
            ("shop.example.co.uk", "example.co.uk", "example"), ("example.com", "example.com", "example"),
            ("a.b.example.com.au", "example.com.au", "example"), ("alice.github.io", "alice.github.io", "alice"),
            ("x.alice.github.io", "alice.github.io", "alice"), ("Example.COM", "example.com", "example"),
            ("www.ck", "www.ck", "www"), ("a.b.ck", "a.b.ck", "a"), ("example.internal", "example.internal", "example"),
            ("city.kobe.jp", "city.kobe.jp", "city"), ("a.xn--fiqs8s", "a.xn--fiqs8s", "a"),
            ("公司.cn", nil, nil), ("a.公司.cn", "a.xn--55qx5d.cn", "a"),
        ] as [(String, String?, String?)])
    func registrable(host: String, domain: String?, label: String?) {
        #expect(Self.list.registrableDomain(of: host) == domain)
        #expect(Self.list.registrableLabel(of: host) == label)
    }

    @Test(
        "public suffixes have no registrable domain", arguments: ["co.uk", "github.io", "com", "b.ck", "localhost", ""])
    func suffixes(host: String) {
        #expect(Self.list.registrableDomain(of: host) == nil)
    }

    @Test("Punycode (RFC 3492 §7.1's samples and the list's own)")
    func punycode() {
        #expect(Punycode.encode("bücher"[...].unicodeScalars) == "bcher-kva")
        #expect(Punycode.encode("公司"[...].unicodeScalars) == "55qx5d")
        #expect(Punycode.encode("中国"[...].unicodeScalars) == "fiqs8s")
        #expect(Punycode.encode("ليهمابتكلموشعربي؟"[...].unicodeScalars) == "egbpdaj6bu4bxfgehfvwxn")
    }

    static let agreementCodes: [DiagnosticCode] = [
        .webCredentialsWithoutAndroid, .loginCredentialsWithoutApple, .passkeyEndpointsWithoutCredentials,
    ]

    static func apple(webcredentials: Bool) -> AssociationFile? {
        let text =
            webcredentials
            ? #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#
            : #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/*"}]}]}}"#
        return AssociationFileValidator.validate(Array(text.utf8)).file
    }

    static func android(_ relation: String?) -> AssetLinks? {
        guard let relation else { return nil }
        let text = AssetLinksTests.file(AssetLinksTests.statement(relation: #"["\#(relation)"]"#))
        return AssetLinksValidator.validate(Array(text.utf8)).file
    }

    @Test(
        "the pieces agree: what Apple has and Android lacks, and the reverse, noted on the file that has it",
        arguments: [
            (true, AssetLinks.getLoginCredentials, false, []),
            (true, AssetLinks.handleAllURLs, true, []),
            (true, nil, false, [DiagnosticCode.webCredentialsWithoutAndroid]),
            (false, AssetLinks.getLoginCredentials, false, [.loginCredentialsWithoutApple]),
            (false, AssetLinks.handleAllURLs, true, [.passkeyEndpointsWithoutCredentials]),
            (false, nil, true, [.passkeyEndpointsWithoutCredentials]),
            (false, nil, false, []),
        ] as [(Bool, String?, Bool, [DiagnosticCode])])
    func agreement(webcredentials: Bool, relation: String?, endpoints: Bool, codes: [DiagnosticCode]) throws {
        let notes = PasskeyAgreement(
            apple: Self.apple(webcredentials: webcredentials), android: Self.android(relation), hasEndpoints: endpoints)
        #expect((notes.apple + notes.android + notes.endpoints).map(\.code) == codes)
        #expect((notes.apple + notes.android + notes.endpoints).allSatisfy { $0.severity == .info })
        if codes == [.webCredentialsWithoutAndroid] { #expect(notes.apple.count == 1) }
        if codes == [.loginCredentialsWithoutApple] { #expect(notes.android.count == 1) }
    }
}
