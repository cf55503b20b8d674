import Foundation
@preconcurrency import Glibc
import Logging

/// The pre-flight before an order (`Preflight`, docs/acme.md "Pre-flight"): every name of the
/// plan must resolve and reach this deployment over HTTP, else the plan is `waiting_dns` and
/// looked at again after 1, 2, 4 … minutes, at most an hour, without a word to the CA.
extension ACMEManager {
    /// What the checks cost, all names together.
    public struct PreflightTotals: Sendable, Equatable {
        public var checks = 0
        public var failed = 0
        public var dnsQueries = 0
        public var requests = 0
        public var seconds = 0.0
        public init() {}
    }

    public var preflightTotals: PreflightTotals { books.withLock { $0.preflights } }

    /// The test-only knob `AASA_TEST_PREFLIGHT_RETRY` (seconds, 1 to 60) shortens the first
    /// wait, so a test sees the next check within seconds (docs/acme.md, "Pre-flight"); it is
    /// no setting and is not documented for users.
    static func preflightFirstRetry() -> Int {
        guard let text = ProcessInfo.processInfo.environment["AASA_TEST_PREFLIGHT_RETRY"], let seconds = Int(text),
            (1...60).contains(seconds)
        else { return 60 }
        return seconds
    }

    /// The wait after the `waits`-th failed check in a row.
    static func preflightDelay(waits: Int, first: Int) -> Int {
        min(first << min(max(waits, 1) - 1, 10), first * 60)
    }

    /// True when the plan may be ordered: the check is off, or every name passed it; else the
    /// job is booked `waiting_dns` with the reason and the next check.
    func passesPreflight(_ primary: String, names: [String]) -> Bool {
        guard let preflight else { return true }
        var cost = Preflight.Cost()
        var failure: String?
        for name in names {
            if case .notHere(let reason) = preflight.check(name, board: board, cost: &cost) {
                failure = reason
                break
            }
        }
        let now = Int(time(nil))
        let waits = books.withLock { books -> Int in
            books.preflights.checks += 1
            books.preflights.dnsQueries += cost.dnsQueries
            books.preflights.requests += cost.requests
            books.preflights.seconds += cost.seconds
            guard let failure, var job = books.jobs[primary] else {
                books.jobs[primary]?.dnsWaits = 0
                return 0
            }
            books.preflights.failed += 1
            job.dnsWaits += 1
            job.state = .waitingDNS
            job.dueAt = Self.later(now, Self.preflightDelay(waits: job.dnsWaits, first: preflightRetry))
            job.lastError = "pre-flight: " + failure
            books.jobs[primary] = job
            return job.dnsWaits
        }
        guard let failure else {
            logger.debug(
                "acme: pre-flight passed",
                metadata: [
                    "names": "\(names.joined(separator: ","))", "dns_queries": .stringConvertible(cost.dnsQueries),
                    "seconds": .stringConvertible((cost.seconds * 1000).rounded() / 1000),
                ])
            return true
        }
        logger.warning(
            "acme: waiting for DNS; not ordered",
            metadata: [
                "names": "\(names.joined(separator: ","))", "reason": "\(failure)",
                "retry_in": .stringConvertible(Self.preflightDelay(waits: waits, first: preflightRetry)),
            ])
        callbacks.withLock { $0 }?.orderFailed()
        return false
    }
}
