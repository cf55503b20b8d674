import AASATransport
import AssociationKit
import Foundation
import Testing

@testable import AASAACME

/// The pure parts of renewal information, profiles and issuers (RFC 9773, RFC 8555 §7.3.4):
/// timestamps, CertIDs, keys, the lifetime-proportional warning and backoff, the settings.
@Suite("ACME renewal information, issuers and lifetimes")
struct ACMERenewalTests {
    @Test(
        "RFC 3339 timestamps",
        arguments: [
            ("2025-01-02T04:00:00Z", 1_735_790_400), ("2025-01-02T04:00:00.123456Z", 1_735_790_400),
            ("2025-01-02T05:30:00+01:30", 1_735_790_400), ("2025-01-02t04:00:00z", 1_735_790_400),
            ("2025-01-01T23:00:00-05:00", 1_735_790_400), ("2025-01-02 04:00:00Z", nil), ("2025-01-02T04:00:00", nil),
            ("2025-13-02T04:00:00Z", nil), ("2025-01-02T04:00:00.Z", nil), ("", nil),
            ("2025-01-02T04:00:00Zjunk", nil),
        ] as [(String, Int?)])
    func timestamps(_ text: String, _ expected: Int?) {
        #expect(RenewalInfo.timestamp(text) == expected)
    }

    @Test("a window: start before end, read from suggestedWindow; any other is no answer")
    func windows() throws {
        func json(_ text: String) throws -> JSONValue { try #require(JSONDocument.parse(Array(text.utf8)).root) }
        let good = try json(#"{"suggestedWindow": {"start": "2025-01-02T04:00:00Z", "end": "2025-01-03T04:00:00Z"}}"#)
        #expect(RenewalInfo(json: good) == RenewalInfo(start: 1_735_790_400, end: 1_735_876_800))
        let reversed = try json(
            #"{"suggestedWindow": {"start": "2025-01-03T04:00:00Z", "end": "2025-01-02T04:00:00Z"}}"#)
        #expect(RenewalInfo(json: reversed) == nil)
        #expect(RenewalInfo(json: try json(#"{"suggestedWindow": "soon"}"#)) == nil)
        #expect(RenewalInfo(json: try json(#"{"suggestedWindow": {"start": 1, "end": 2}}"#)) == nil)
        #expect(RenewalInfo(json: try json("[1]")) == nil)
        let window = RenewalInfo(start: 100, end: 200)!
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 { #expect((100..<200).contains(window.randomMoment(using: &generator))) }
    }

    @Test("the CertID of RFC 9773 §4.1's example; none without an AKI")
    func certID() {
        // The example: keyIdentifier 69:88:5B:6B:87:46:40:41:E1:B3:7B:84:7B:A0:AE:2C:DE:01:C8:D4,
        // serial 0x0087654321 (a zero byte first: the high bit is set).
        let aki: [UInt8] = [
            0x69, 0x88, 0x5B, 0x6B, 0x87, 0x46, 0x40, 0x41, 0xE1, 0xB3, 0x7B, 0x84, 0x7B, 0xA0, 0xAE, 0x2C, 0xDE, 0x01,
            0xC8, 0xD4,
        ]
        #expect(
            RenewalInfo.certID(authorityKeyID: aki, serialNumber: [0x00, 0x87, 0x65, 0x43, 0x21])
                == "aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdlQyE")
        #expect(RenewalInfo.certID(authorityKeyID: nil, serialNumber: [1]) == nil)
    }

    @Test(
        "base64url decoding",
        arguments: [
            ("", [UInt8]()), ("AA", [0]), ("AAE", [0, 1]), ("AAEC", [0, 1, 2]), ("-_8", [0xFB, 0xFF]),
            ("AAE=\n", [0, 1]),
        ] as [(String, [UInt8])])
    func base64url(_ text: String, _ bytes: [UInt8]) {
        #expect(Base64URL.decode(text) == bytes)
        #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
    }

    @Test("base64url decoding refuses other characters and impossible lengths", arguments: ["A", "AA+A", "AA/A", "é"])
    func base64urlRefused(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("HMAC-SHA256 of RFC 4231 test case 2")
    func hmac() {
        let mac = HMACSHA256.authenticate(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(
            mac.map { String(format: "%02x", $0) }.joined()
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test(
        "CERT002's window: a sixth of the lifetime, at most 14 days",
        arguments: [
            (398 * 86_400, 14 * 86_400), (90 * 86_400, 14 * 86_400), (64 * 86_400, 64 * 86_400 / 6),
            (45 * 86_400, 45 * 86_400 / 6), (6 * 86_400, 86_400), (0, 0), (-5, 0),
        ])
    func warningWindow(_ lifetime: Int, _ window: Int) {
        #expect(CertificateStore.warningWindow(lifetime: lifetime) == window)
    }

    @Test("the backoff never exceeds a tenth of the time left (at least a minute), and keeps the CA's Retry-After")
    func backoffCapped() {
        for failures in 1...30 {
            // A 6-day certificate with 2 days left: at most 4.8 hours between attempts.
            #expect(ACMEManager.backoff(failures: failures, retryAfter: nil, remaining: 2 * 86_400) <= 17_280)
            #expect(ACMEManager.backoff(failures: failures, retryAfter: nil, remaining: 100) >= 45)
            #expect(ACMEManager.backoff(failures: failures, retryAfter: nil, remaining: 100) <= 60)
            #expect(ACMEManager.backoff(failures: failures, retryAfter: 3600, remaining: 100) == 3600)
            #expect(
                ACMEManager.backoff(failures: failures, retryAfter: 3600, remaining: 100, sameIssuer: false) <= 60)
        }
    }

    @Test("a failure hands the name to the next issuer at once; after the last, a backoff from the first")
    func issuerRotation() {
        var settings = ACMESettings()
        settings.issuerList = [
            ACMEIssuerSettings(directory: "https://one.example/dir"),
            ACMEIssuerSettings(directory: "https://two.example:8443/dir"),
        ]
        let manager = ACMEManager(
            settings: settings, certificates: "/nonexistent", challenges: [.http01],
            publicSuffixes: ACMEBudgetTests.suffixes,
            logger: .init(label: "test"))
        manager.update(plans: [CertificatePlan(names: ["shop.example.com"], onDemand: false)], certificates: [], now: 0)
        let problem = ACMEProblem(type: "transport", detail: "refused")
        #expect(manager.failed("shop.example.com", problem, renewal: false, now: 0).0 == 0)
        #expect(manager.managed(now: 0).first?.nextIssuer == "two.example:8443")
        #expect((45...75).contains(manager.failed("shop.example.com", problem, renewal: false, now: 0).0))
        #expect(manager.managed(now: 0).first?.nextIssuer == "one.example")
        let results = manager.results()
        #expect(results["order_failed|one.example"] == 1 && results["order_failed|two.example:8443"] == 1)
    }

    @Test(
        "issuer settings: the list, the one-issuer form winning, and what cannot run",
        arguments: [
            (nil, nil, nil, ["https://acme-v02.api.letsencrypt.org/directory"], nil),
            ("https://a.example/dir", nil, nil, ["https://a.example/dir"], nil),
            (
                nil, ["https://b.example/dir", "https://c.example/dir"], nil,
                ["https://b.example/dir", "https://c.example/dir"], nil
            ),
            ("https://a.example/dir", ["https://b.example/dir"], nil, ["https://a.example/dir"], nil),
            (nil, ["https://b.example/dir"], "classic", ["https://b.example/dir"], "belong to --acme-directory"),
            (
                nil, ["https://b.example/dir", "https://b.example/dir"], nil,
                ["https://b.example/dir", "https://b.example/dir"], "twice"
            ),
        ] as [(String?, [String]?, String?, [String], String?)])
    func issuerSettings(
        _ directory: String?, _ list: [String]?, _ profile: String?, _ expected: [String], _ problem: String?
    ) {
        var settings = ACMESettings()
        settings.directory = directory
        settings.profile = profile
        settings.issuerList = list?.map { ACMEIssuerSettings(directory: $0) }
        #expect(settings.issuers.map(\.directory) == expected)
        #expect(
            settings.issuersProblem?.contains(problem ?? "") ?? (problem == nil), "\(settings.issuersProblem ?? "-")")
        #expect((settings.issuersProblem == nil) == (problem == nil))
    }
}
