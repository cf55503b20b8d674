import AASAStore
import Testing

@testable import AASAACME

/// The pre-flight's pure parts (docs/acme.md, "Pre-flight"): the waits of a `waiting_dns`
/// name, the states `/sites.json` shows, and where its tokens live in the store.
@Suite("ACME pre-flight")
struct PreflightTests {
    @Test(
        "waits after failed checks: 1, 2, 4 … minutes, at most an hour",
        arguments: [
            (1, 60, 60), (2, 60, 120), (3, 60, 240), (6, 60, 1920), (7, 60, 3600), (40, 60, 3600), (0, 60, 60),
            (1, 1, 1), (5, 1, 16), (9, 1, 60), (Int.max, 1, 60),
        ])
    func delays(waits: Int, first: Int, expected: Int) {
        #expect(ACMEManager.preflightDelay(waits: waits, first: first) == expected)
    }

    static func certificate(_ state: ManagedCertificate.State, failures: Int = 0, notAfter: Int? = nil)
        -> ManagedCertificate
    {
        ManagedCertificate(
            names: ["shop.example.com"], state: state, onDemand: false, notAfter: notAfter, failures: failures)
    }

    @Test("the states /sites.json names")
    func states() {
        let now = 1_000_000
        let table: [(ManagedCertificate, String)] = [
            (Self.certificate(.waitingDNS), "waiting_dns"),
            (Self.certificate(.waitingDNS, notAfter: now + 10), "waiting_dns"),
            (Self.certificate(.scheduled), "ordering"),
            (Self.certificate(.scheduled, failures: 2), "failing"),
            (Self.certificate(.dropped), "failing"),
            (Self.certificate(.ordering, notAfter: now - 10), "ordering"),
            (Self.certificate(.valid, notAfter: now + 10), "issued"),
            (Self.certificate(.issued), "issued"),
            (Self.certificate(.valid, notAfter: now - 10), "expired"),
            (Self.certificate(.scheduled, notAfter: now - 10), "expired"),
            (Self.certificate(.scheduled, notAfter: now + 10), "issued"),
        ]
        for (certificate, expected) in table {
            #expect(certificate.status(now: now) == expected, "\(certificate.state) \(certificate.failures)")
        }
    }

    @Test("the sites without a valid certificate (aasa_acme_certificate_unissued): not a renewal under way")
    func unissued() {
        let now = 1_000_000
        let table: [(ManagedCertificate, Bool)] = [
            (Self.certificate(.waitingDNS), true),
            (Self.certificate(.waitingDNS, notAfter: now + 10), false),
            (Self.certificate(.scheduled), true),
            (Self.certificate(.scheduled, failures: 2), true),
            (Self.certificate(.scheduled, failures: 2, notAfter: now + 10), false),
            (Self.certificate(.dropped), true),
            (Self.certificate(.ordering), true),
            (Self.certificate(.ordering, notAfter: now + 10), false),
            (Self.certificate(.issued), false),
            (Self.certificate(.valid, notAfter: now + 10), false),
            (Self.certificate(.valid, notAfter: now - 10), true),
        ]
        for (certificate, expected) in table {
            #expect(certificate.isUnissued(now: now) == expected, "\(certificate.state) \(certificate.notAfter ?? 0)")
        }
    }

    @Test("random bytes eight at a time: the length asked for, different each time", arguments: [1, 7, 8, 24, 32])
    func randomBytes(_ count: Int) {
        let (first, second) = (Preflight.randomBytes(count), Preflight.randomBytes(count))
        #expect(first.count == count && second.count == count)
        if count >= 8 { #expect(first != second) }
    }

    @Test("a pre-flight token is kept under preflight/, a CA's under challenges/http-01/")
    func keys() {
        let token = Preflight.tokenPrefix + String(repeating: "A", count: 32)
        #expect(ChallengeKey.isWellFormed(token: token.utf8))
        #expect(StoreChallenges.key(.http(token: token))?.text == "preflight/" + token)
        #expect(
            StoreChallenges.key(.http(token: String(repeating: "b", count: 43)))?.text
                == "challenges/http-01/" + String(repeating: "b", count: 43))
    }
}
