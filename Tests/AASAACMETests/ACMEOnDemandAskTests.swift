import Foundation
import Logging
import TestSupport
import Testing

@testable import AASAACME

/// Who may spend the on-demand budget (docs/acme.md, "On-demand names") and the renewal floor
/// (docs/acme.md, "Renewal floor"): the glob grammar in a table, the refusals a handshake sees
/// before and after the ask URL answers, and the floor's arithmetic.
@Suite("ACME on-demand patterns, the ask URL and the renewal floor")
struct ACMEOnDemandAskTests {
    @Test(
        "the glob: * within one label, labels counted, case ignored",
        arguments: [
            ("pr-*.staging.example.com", "pr-7.staging.example.com", true),
            ("pr-*.staging.example.com", "pr-.staging.example.com", true),
            ("pr-*.staging.example.com", "PR-12.Staging.Example.com", true),
            ("pr-*.staging.example.com", "x1.staging.example.com", false),
            ("pr-*.staging.example.com", "a.pr-7.staging.example.com", false),
            ("pr-*.staging.example.com", "pr.staging.example.com", false),
            ("pr-*.staging.example.com", "pr-7.staging.example.org", false),
            ("*.staging.example.com", "anything.staging.example.com", true),
            ("*.staging.example.com", "staging.example.com", false),
            ("*-preview-*.example.com", "a-preview-b.example.com", true),
            ("*-preview-*.example.com", "-preview-.example.com", true),
            ("*-preview-*.example.com", "a-preview.example.com", false),
            ("a*a.example.com", "a.example.com", false), ("a*a.example.com", "aa.example.com", true),
            ("a*b*c.example.com", "abxbc.example.com", true), ("a*b*c.example.com", "acb.example.com", false),
            ("shop.example.com", "shop.example.com", true), ("shop.example.com", "shop.example.co", false),
            ("*.*.example.com", "a.b.example.com", true), ("*.*.example.com", "a.example.com", false),
        ])
    func glob(_ pattern: String, _ name: String, _ matches: Bool) throws {
        let compiled = try #require(OnDemandNamePattern(pattern))
        #expect(compiled.matches(name) == matches)
    }

    @Test(
        "what is no pattern",
        arguments: [
            "", ".", "a..b", "a.", ".a", "pr-?.example.com", "a b.com", "é.example.com", "a/b",
            String(repeating: "a", count: 64) + ".com",
        ])
    func badPatterns(_ text: String) {
        #expect(OnDemandNamePattern(text) == nil)
    }

    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("acme-ask")
    }

    func manager(_ configure: (inout ACMESettings) -> Void) throws -> ACMEManager {
        var settings = ACMESettings()
        settings.enabled = true
        configure(&settings)
        return ACMEManager(
            settings: settings, certificates: folder.path(), challenges: [.http01],
            publicSuffixes: ACMEBudgetTests.suffixes,
            logger: Logger(label: "test"))
    }

    @Test("patterns alone: a name outside them is refused and counted, one inside is ordered")
    func patterns() throws {
        let manager = try self.manager { $0.onDemandNames = [OnDemandNamePattern("pr-*.staging.example.com")!] }
        #expect(!manager.certificateWanted(for: "x1.staging.example.com", now: 100))
        #expect(manager.certificateWanted(for: "pr-1.staging.example.com", now: 100))
        #expect(manager.results()["on_demand_names"] == 1)
        #expect(manager.budgetSpent("example.com", now: 100) == 1)
        #expect(manager.recentlyRefused().map(\.name) == ["x1.staging.example.com"])
    }

    @Test("the ask URL: unknown names wait for the answer, a no is remembered and counted, a yes orders")
    func ask() throws {
        let manager = try self.manager {
            $0.onDemandAsk = "http://127.0.0.1:1/ask"
            $0.onDemandNames = [OnDemandNamePattern("*.staging.example.com")!]
        }
        let asker = try #require(manager.asker)
        let now = Int(time(nil))
        // Not answered yet: the handshake goes on without a certificate, nothing is spent.
        #expect(!manager.certificateWanted(for: "x1.staging.example.com", now: now))
        #expect(manager.budgetSpent("example.com", now: now) == 0)
        asker.remember("x1.staging.example.com", .refused(403), now: now)
        manager.answered("x1.staging.example.com", .refused(403))
        #expect(!manager.certificateWanted(for: "x1.staging.example.com", now: now))
        #expect(manager.results()["on_demand_ask"] == 2)
        #expect(manager.results()["ask_refused"] == 1)
        // A yes orders at once; the handshakes after it wait for the certificate.
        asker.remember("pr-1.staging.example.com", .allowed, now: now)
        manager.answered("pr-1.staging.example.com", .allowed)
        #expect(manager.budgetSpent("example.com", now: now) == 1)
        #expect(manager.managed(now: now).map(\.names) == [["pr-1.staging.example.com"]])
        #expect(manager.certificateWanted(for: "pr-1.staging.example.com", now: now))
        // Answers are remembered for a minute, then asked again.
        #expect(asker.verdict(for: "x1.staging.example.com", now: now + 59) == .refused)
        #expect(asker.verdict(for: "x1.staging.example.com", now: now + 60) == .unknown)
        // Patterns first: a name outside them is never asked.
        #expect(!manager.certificateWanted(for: "x1.other.example.com", now: now))
        #expect(manager.results()["on_demand_names"] == 1)
    }

    @Test("no answer is no: a closed port, and an https URL that does not verify")
    func noAnswer() throws {
        let closed = try #require(OnDemandAsk(url: "http://127.0.0.1:1/ask", logger: Logger(label: "test")))
        guard case .failed = closed.query("pr-1.staging.example.com") else {
            Issue.record("a closed port allowed the name")
            return
        }
        #expect(OnDemandAsk(url: "http://192.0.2.1/ask", logger: Logger(label: "test")) == nil)
    }

    @Test("the renewal floor: a day from the later of notBefore and the last order, never past the third rule")
    func renewalFloor() {
        let day = ACMESettings.renewalFloor
        let held = HeldCertificate(
            certID: "a.b", folder: "/x", notBefore: 1_000_000, notAfter: 1_000_000 + 90 * 86_400, managed: true)
        // Asked at once an hour after issuance: put off to a day after notBefore.
        #expect(ACMEManager.floored(1_003_600, held, orderedAt: nil) == 1_000_000 + day)
        // A later order by this process counts from then (a CA that backdates notBefore).
        #expect(ACMEManager.floored(1_003_600, held, orderedAt: 1_002_000) == 1_002_000 + day)
        // Asked after the floor: as asked.
        #expect(ACMEManager.floored(1_000_000 + 2 * day, held, orderedAt: nil) == 1_000_000 + 2 * day)
        // A 30-hour certificate: the third rule (10 hours left) comes before the floor ends.
        let short = HeldCertificate(certID: nil, folder: "/x", notBefore: 0, notAfter: 30 * 3600, managed: true)
        #expect(ACMEManager.floored(3600, short, orderedAt: nil) == short.thirdLeft)
        #expect(ACMEManager.floored(3600, short, orderedAt: nil) < day)
    }
}
