import AssociationKit
import Foundation
import Logging
import TestSupport
import Testing

@testable import AASAACME

/// Certificates for aliases (docs/acme.md, "Aliases and the budget"): plans split under the
/// CA's names-per-certificate limit, and orders charged per registered domain.
@Suite("ACME alias plans and their budget")
struct ACMEAliasPlanTests {
    @Test(
        "a folder and its aliases split into certificates of at most 100 names",
        arguments: [
            (0, [1]), (1, [2]), (99, [100]), (100, [100, 1]), (150, [100, 51]), (199, [100, 100]),
            (200, [100, 100, 1]), (1000, [100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 1]),
        ])
    func split(_ aliases: Int, _ sizes: [Int]) {
        let names = (0..<aliases).map { "a\($0).example.org" }.sorted()
        let plans = CertificatePlan.plans(site: "shop.example.com", aliases: names)
        #expect(plans.map(\.names.count) == sizes)
        #expect(plans[0].primary == "shop.example.com")
        #expect(plans.allSatisfy { $0.names.count <= CertificatePlan.mostNames && !$0.onDemand })
        #expect(plans.map(\.aliases) == plans.indices.map { $0 > 0 || aliases > 0 })
        // Every name once, in order, each plan named after its first.
        #expect(plans.flatMap(\.names) == ["shop.example.com"] + names)
        #expect(Set(plans.map(\.primary)).count == plans.count)
    }

    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("acme-aliases")
    }

    func manager(weekly: Int) -> ACMEManager {
        var settings = ACMESettings()
        settings.onDemandWeekly = weekly
        return ACMEManager(
            settings: settings, certificates: folder.path(), challenges: [.http01],
            publicSuffixes: ACMEBudgetTests.suffixes, logger: Logger(label: "test"))
    }

    @Test("each alias order is one certificate of each registered domain in it; past the budget it waits")
    func budget() throws {
        let manager = manager(weekly: 2)
        let now = 1_000_000
        // Charged once per set of names: a retry of the same order is free.
        #expect(manager.chargeAliasOrder("shop.example.com", ["shop.example.com", "go.example.com"], now: now))
        #expect(manager.chargeAliasOrder("a.example.com", ["a.example.com", "b.example.net"], now: now))
        #expect(manager.aliasCertificatesSpent("example.com", now: now) == 2)
        #expect(manager.aliasCertificatesSpent("example.net", now: now) == 1)
        let plan = CertificatePlan(names: ["c.example.com", "d.example.com"], onDemand: false, aliases: true)
        manager.update(plans: [plan], certificates: [], now: now)
        #expect(!manager.chargeAliasOrder("c.example.com", plan.names, now: now))
        let waiting = try #require(manager.managed(now: now).first { $0.names == plan.names })
        #expect(waiting.state == .scheduled && waiting.nextAttempt == now + ACMESettings.aliasBudgetRetry)
        #expect(waiting.lastError?.contains("example.com had 2 certificates for aliases") == true)
        #expect(manager.results()["alias_budget"] == 1)
        // Another registered domain has its own budget; on-demand names count apart.
        #expect(manager.chargeAliasOrder("x.example.org", ["x.example.org"], now: now))
        #expect(manager.budgetSpent("example.com", now: now) == 0)
        // Seven days later the window has room again.
        #expect(manager.chargeAliasOrder("c.example.com", plan.names, now: now + 7 * 86_400 + 1))
    }

    @Test("the charges are kept across restarts in acme/on-demand-names as =DOMAIN lines")
    func persisted() throws {
        let now = Int(time(nil))
        let first = manager(weekly: 1)
        #expect(first.chargeAliasOrder("shop.example.com", ["shop.example.com", "go.example.com"], now: now))
        first.saveBudget()
        let text = try String(contentsOfFile: first.budgetPath, encoding: .utf8)
        #expect(text == "\(now) =example.com\n")
        let second = manager(weekly: 1)
        second.loadBudget(now: now)
        #expect(second.aliasCertificatesSpent("example.com", now: now) == 1)
        #expect(!second.chargeAliasOrder("x.example.com", ["x.example.com"], now: now))
    }

    @Test("a plan whose aliases change waits for the edits to settle; one without change does not")
    func settle() throws {
        let manager = manager(weekly: 20)
        let now = 1_000_000
        let first = CertificatePlan(names: ["shop.example.com", "a.example.com"], onDemand: false, aliases: true)
        manager.update(plans: [first], certificates: [], now: now)
        #expect(manager.managed(now: now)[0].nextAttempt == now)
        let second = CertificatePlan(
            names: ["shop.example.com", "a.example.com", "b.example.com"], onDemand: false, aliases: true)
        manager.update(plans: [second], certificates: [], now: now + 1)
        #expect(manager.managed(now: now)[0].nextAttempt == now + 1 + ACMESettings.aliasSettle)
        manager.update(plans: [second], certificates: [], now: now + 2)
        #expect(manager.managed(now: now)[0].nextAttempt == now + 1 + ACMESettings.aliasSettle)
        // A plan of aliases that appears after start-up (a folder's 100th alias) settles too;
        // a folder without aliases does not.
        let chunk = CertificatePlan(names: ["z.example.com"], onDemand: false, aliases: true)
        let plain = CertificatePlan(names: ["plain.example.com"], onDemand: false)
        manager.update(plans: [second, chunk, plain], certificates: [], now: now + 3)
        let due = Dictionary(uniqueKeysWithValues: manager.managed(now: now).map { ($0.names[0], $0.nextAttempt) })
        #expect(due["z.example.com"] == now + 3 + ACMESettings.aliasSettle)
        #expect(due["plain.example.com"] == now + 3)
    }
}
