import Testing

@testable import AASAACME

/// Which job a worker takes next (docs/acme.md, "Many sites"): one look finds every due task in
/// the order the workers take them, and the earliest moment anything else comes due.
@Suite("ACME schedule")
struct ACMEScheduleTests {
    static func job(
        _ name: String, _ state: ManagedCertificate.State, dueAt: Int, renewal: Bool = false, onDemand: Bool = false
    ) -> ACMEManager.Job {
        ACMEManager.Job(
            plan: CertificatePlan(names: [name], onDemand: onDemand), state: state, dueAt: dueAt, renewal: renewal)
    }

    @Test("renewals, then on-demand names, then new sites, oldest first; checks last; nothing early or busy")
    func order() {
        var books = ACMEManager.Books()
        let now = 100
        books.jobs["new-late.example"] = Self.job("new-late.example", .scheduled, dueAt: 90)
        books.jobs["new-early.example"] = Self.job("new-early.example", .scheduled, dueAt: 10)
        books.jobs["dns.example"] = Self.job("dns.example", .waitingDNS, dueAt: 50)
        books.jobs["renew.example"] = Self.job("renew.example", .valid, dueAt: 99, renewal: true)
        books.jobs["pr-1.example"] = Self.job("pr-1.example", .scheduled, dueAt: 95, onDemand: true)
        books.jobs["later.example"] = Self.job("later.example", .waitingDNS, dueAt: 160)
        books.jobs["ordering.example"] = Self.job("ordering.example", .ordering, dueAt: 0)
        var booking = Self.job("booking.example", .scheduled, dueAt: 0)
        booking.finishing = true
        books.jobs["booking.example"] = booking
        var held = Self.job("held.example", .valid, dueAt: 5000, renewal: true)
        held.checkAt = 100
        books.jobs["held.example"] = held
        books.look(now: now)
        let taken = books.ready.reversed().map { task -> String in
            switch task {
            case .order(let name): "order " + name
            case .check(let name): "check " + name
            }
        }
        #expect(
            taken == [
                "order renew.example", "order pr-1.example", "order new-early.example", "order dns.example",
                "order new-late.example", "check held.example",
            ])
        #expect(books.lookedAt == now && !books.lookAgain)
        // The earliest due among the rest: booking.example, due but being booked (a second's wait).
        #expect(books.nextDue == 0)
        books.jobs["booking.example"] = nil
        books.jobs["ordering.example"] = nil
        books.look(now: now)
        #expect(books.nextDue == 10)
    }
}
