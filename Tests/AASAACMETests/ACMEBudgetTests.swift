import AssociationKit
import Foundation
import Logging
import TestSupport
import Testing

@testable import AASAACME

/// What a handshake for a new name may cost and what the CA's numbers may do
/// (docs/acme.md, "On-demand budget" and "Numbers from the CA"): pure logic, in tables.
@Suite("ACME budget, failure drop and peer numbers")
struct ACMEBudgetTests {
    /// The system's Public Suffix List, as the server reads it (`.ci/run` installs publicsuffix).
    static let suffixes = PublicSuffixList(
        text: (try? String(contentsOfFile: "/usr/share/publicsuffix/public_suffix_list.dat", encoding: .utf8)) ?? "")

    @Test(
        "the registered domain by the Public Suffix List: multi-label and private suffixes",
        arguments: [
            ("pr-7.staging.example.com", "example.com"), ("example.com", "example.com"), ("com", "com"),
            ("a.b.example.co.uk", "example.co.uk"), ("shop.example.com.au", "example.com.au"),
            ("x.example.org.uk", "example.org.uk"), ("a.example.co", "example.co"), ("a.co.example", "co.example"),
            ("A.Staging.Example.COM.", "example.com"), ("x.example.de", "example.de"),
            // What two or three labels guessed wrong: private suffixes and deeper public ones.
            ("a.github.io", "a.github.io"), ("x.a.github.io", "a.github.io"), ("shop.example.ltd.uk", "example.ltd.uk"),
            ("a.example.kawasaki.jp", "a.example.kawasaki.jp"), ("a.b.example.pvt.k12.ma.us", "example.pvt.k12.ma.us"),
        ])
    func registeredDomain(name: String, domain: String) {
        #expect(RegisteredDomain.of(name, in: Self.suffixes) == domain)
    }

    @Test("the budget: per registered domain, a name counted once, sliding seven days")
    func budget() {
        var budget = OnDemandBudget()
        let now = 1_000_000
        func admit(_ name: String, limit: Int = 2, _ at: Int) -> Bool {
            budget.admit(name, limit: limit, now: at, suffixes: Self.suffixes)
        }
        #expect(admit("a.staging.example.com", now))
        #expect(admit("b.other.example.com", now + 1))
        #expect(!admit("c.staging.example.com", now + 2))
        // The same name again costs nothing; another registered domain has its own budget.
        #expect(admit("a.staging.example.com", now + 3))
        #expect(admit("a.staging.example.org", now + 4))
        #expect(budget.spent("example.com", now: now + 5) == 2)
        // Seven days after the first name, one slot is free again, not before.
        #expect(!admit("c.staging.example.com", now + OnDemandBudget.window - 1))
        #expect(admit("c.staging.example.com", now + OnDemandBudget.window))
        #expect(!admit("d.staging.example.com", now + OnDemandBudget.window))
        #expect(!admit("x.example.net", limit: 0, now))
    }

    @Test("the budget file round-trips; broken lines and old entries are dropped")
    func budgetFile() {
        var budget = OnDemandBudget()
        _ = budget.admit("a.staging.example.com", limit: 5, now: 2_000_000, suffixes: Self.suffixes)
        _ = budget.admit("b.staging.example.com", limit: 5, now: 2_000_010, suffixes: Self.suffixes)
        #expect(OnDemandBudget(text: budget.text, now: 2_000_020, suffixes: Self.suffixes) == budget)
        let text = budget.text + "garbage\n99999999999999999999 c.example.com\n1 old.example.com\n \n"
        #expect(OnDemandBudget(text: text, now: 2_000_020, suffixes: Self.suffixes) == budget)
    }

    @Test(
        "Retry-After from a CA: seconds or a date, clamped to 0 to a day, never a trap",
        arguments: [
            ("120", 120), ("0", 0), (" 30 ", 30), ("86400", 86_400), ("86401", 86_400),
            ("9223372036854775807", 86_400), ("99999999999999999999999999", 86_400),
            ("Thu, 01 Jan 1970 00:00:00 GMT", 0), ("Fri, 31 Dec 9999 23:59:59 GMT", 86_400),
        ])
    func retryAfter(value: String, seconds: Int) {
        #expect(ACMEResponse.delay(value, now: 1_700_000_000) == seconds)
    }

    @Test("Retry-After that is neither seconds nor a date is ignored", arguments: ["-1", "soon", "", "1.5", "+3"])
    func retryAfterInvalid(value: String) {
        #expect(ACMEResponse.delay(value, now: 1_700_000_000) == nil)
    }

    @Test("the backoff is at most a day for any Retry-After, and now + backoff never traps")
    func backoff() {
        for retryAfter in [Int.max, Int.min, 86_401, -5, nil] {
            for failures in [1, 2, 30, Int.max] {
                let backoff = ACMEManager.backoff(failures: failures, retryAfter: retryAfter)
                #expect((45...(86_400 * 5 / 4)).contains(backoff))
            }
        }
        #expect(ACMEManager.later(Int.max - 5, 86_400) == Int.max)
        #expect(ACMEManager.later(10, 20) == 30)
    }

    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("acme")
    }

    func manager(weekly: Int = 20, perHour: Int = 10) throws -> ACMEManager {
        var settings = ACMESettings()
        settings.onDemandWeekly = weekly
        settings.onDemandPerHour = perHour
        return ACMEManager(
            settings: settings, certificates: folder.path(), challenges: [.http01], publicSuffixes: Self.suffixes,
            logger: Logger(label: "test"))
    }

    @Test("an on-demand name that fails three times is dropped until a handshake asks after a growing cool-down")
    func failureDrop() throws {
        let manager = try self.manager()
        let name = "pr-1.staging.example.com"
        var now = 1_000_000
        #expect(manager.certificateWanted(for: name, now: now))
        let problem = ACMEProblem(type: "urn:ietf:params:acme:error:connection", detail: "no answer")
        for failure in 1...3 {
            let (delay, dropped) = manager.failed(name, problem, renewal: false, now: now)
            #expect(dropped == (failure == 3))
            now += delay
        }
        #expect(manager.managed(now: now)[0].state == .dropped)
        // The cool-down is an hour (or the backoff when longer): asked before it ends, refused.
        let dueAt = try #require(manager.managed(now: now)[0].nextAttempt)
        #expect(dueAt - (now - 3600) >= 0)
        #expect(!manager.certificateWanted(for: name, now: dueAt - 1))
        #expect(manager.results()["on_demand_dropped"] == 1)
        // After it, a handshake asks again: ordered, and the name costs no more budget.
        #expect(manager.certificateWanted(for: name, now: dueAt))
        #expect(manager.budgetSpent("example.com", now: dueAt) == 1)
        // Three more failures: dropped again, for twice as long.
        now = dueAt
        var last = 0
        for _ in 1...3 { last = manager.failed(name, problem, renewal: false, now: now).0 }
        #expect(last >= 7200)
        #expect(manager.managed(now: now)[0].state == .dropped)
    }

    @Test("renewals are never dropped; they back off")
    func renewalsNotDropped() throws {
        let manager = try self.manager()
        let name = "pr-2.staging.example.com"
        #expect(manager.certificateWanted(for: name, now: 0))
        for _ in 1...5 {
            _ = manager.failed(name, ACMEProblem(type: "x", detail: "y"), renewal: false, now: 0)
        }
        let plan = CertificatePlan(names: ["shop.example.com"], onDemand: false)
        manager.update(plans: [plan], certificates: [], now: 0)
        for _ in 1...5 {
            #expect(!manager.failed("shop.example.com", ACMEProblem(type: "x", detail: "y"), renewal: false, now: 0).1)
        }
    }

    @Test("the weekly budget refuses a third name of a registered domain, not another domain's")
    func weeklyBudget() throws {
        let manager = try self.manager(weekly: 2)
        #expect(manager.certificateWanted(for: "a.staging.example.com", now: 100))
        #expect(manager.certificateWanted(for: "b.staging.example.com", now: 101))
        #expect(!manager.certificateWanted(for: "c.staging.example.com", now: 102))
        #expect(manager.certificateWanted(for: "c.staging.example.org", now: 103))
        #expect(manager.results()["on_demand_budget"] == 1)
        // The hourly rate is spent first when it is the smaller.
        let hourly = try self.manager(weekly: 20, perHour: 1)
        #expect(hourly.certificateWanted(for: "a.staging.example.com", now: 100))
        #expect(!hourly.certificateWanted(for: "b.staging.example.com", now: 101))
        #expect(hourly.results()["on_demand_rate"] == 1)
        #expect(hourly.budgetSpent("example.com", now: 101) == 1)
    }

    @Test("the budget counts by the list: names under co.uk share their registered domain, github.io users do not")
    func budgetByList() throws {
        let manager = try self.manager(weekly: 2)
        #expect(manager.certificateWanted(for: "a.shop.example.co.uk", now: 100))
        #expect(manager.certificateWanted(for: "b.example.co.uk", now: 101))
        #expect(!manager.certificateWanted(for: "c.staging.example.co.uk", now: 102))
        #expect(manager.budgetSpent("example.co.uk", now: 103) == 2)
        // Another registrant under the same public suffix has its own budget.
        #expect(manager.certificateWanted(for: "a.other.co.uk", now: 104))
        for user in ["alice", "bob", "carol"] {
            #expect(manager.certificateWanted(for: "www.\(user).github.io", now: 105))
        }
        #expect(manager.budgetSpent("alice.github.io", now: 106) == 1)
    }
}
