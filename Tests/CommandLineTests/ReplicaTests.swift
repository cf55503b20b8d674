import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// Three replicas of `serve --acme on` behind HAProxy, one store, Pebble validating through
/// the balancer (docs/acme.md, "Several replicas"): every replica answers every challenge,
/// one order per name, every replica serves what any replica issued.
@Suite("Several replicas, one store", .serialized, .enabled(if: HAProxy.available))
struct ReplicaTests {
    /// Names that sort apart: no name is a prefix of another in the logs' `names=` field.
    static func names(_ count: Int, _ domain: String = "replicas.example.com") -> [String] {
        (1...count).map { "n\(String(format: "%02d", $0)).\(domain)" }
    }

    /// What issuing every name showed: per name, seconds from its issuance (the first sign of
    /// it: the stored event, or the first replica serving it) to every replica serving it.
    struct Spread {
        var seconds: [String: Double] = [:]
        /// Per name, each replica's lag behind the issuance.
        var lags: [String: [Double]] = [:]
        var total: Double = 0
        var worst: Double { seconds.values.max() ?? 0 }
        var median: Double {
            let sorted = seconds.values.sorted()
            return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        }
    }

    /// Polls every replica until all serve every name (or `seconds` pass); a name's clock
    /// starts when any replica logs it stored or serves it.
    static func waitUntilAllServe(_ set: ReplicaSet, within seconds: Double) -> Spread {
        let started = Date()
        var issued: [String: Date] = [:]
        var servedBy = Array(repeating: [String: Date](), count: set.ports.count)
        var spread = Spread()
        var cycles = 0
        while Date().timeIntervalSince(started) < seconds && spread.seconds.count < set.names.count {
            let now = Date()
            let logs = set.servers.map { $0?.errors ?? "" }.joined(separator: "\n")
            for line in logs.split(separator: "\n") where line.contains("acme: certificate stored") {
                for name in set.names where issued[name] == nil && line.contains("names=\(name) ") {
                    issued[name] = now
                }
            }
            for index in set.ports.indices {
                let missing = set.names.filter { servedBy[index][$0] == nil }
                for name in set.served(by: index, missing) {
                    servedBy[index][name] = now
                    if issued[name] == nil { issued[name] = now }
                }
            }
            for name in set.names where spread.seconds[name] == nil {
                let times = servedBy.compactMap { $0[name] }
                guard times.count == servedBy.count, let start = issued[name], let end = times.max() else { continue }
                spread.seconds[name] = end.timeIntervalSince(start)
                spread.lags[name] = times.map { ($0.timeIntervalSince(start) * 100).rounded() / 100 }
            }
            cycles += 1
            usleep(50_000)
        }
        print("replicas: \(cycles) polls")
        spread.total = Date().timeIntervalSince(started)
        return spread
    }

    /// The "Done when" of issue 47 for one store: every order valid at its first attempt,
    /// exactly one per name (Pebble's count and the replicas' logs), every replica serving
    /// every certificate within 2 s of its issuance.
    static func issueEveryName(_ set: ReplicaSet, label: String) throws {
        let spread = waitUntilAllServe(set, within: 180)
        if let path = ProcessInfo.processInfo.environment["AASA_REPLICA_LOGS"] {
            try? (set.logs + "\n--- pebble\n" + set.pebble.output).write(
                toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(spread.seconds.count == set.names.count, "\(set.logs.suffix(6000))")
        print(
            "replicas (\(label)): \(set.names.count) names issued and served by \(set.ports.count) replicas in "
                + "\(String(format: "%.1f", spread.total)) s; issuance to every replica serving: median "
                + "\(String(format: "%.2f", spread.median)) s, worst \(String(format: "%.2f", spread.worst)) s")
        #expect(spread.worst <= 2, "\(spread.lags.sorted { $0.key < $1.key })")
        #expect(!set.logs.contains("acme: order failed"), "\(set.logs.suffix(6000))")
        for name in set.names {
            #expect(set.orders(for: name) == 1, "\(name) ordered \(set.orders(for: name)) times")
        }
        #expect(set.pebble.ordersCreated == set.names.count, "\(set.pebble.output.suffix(3000))")
    }

    @Test("30 names, folder store: each ordered once, valid at the first attempt, served by all within 2 s")
    func thirtyNamesFolder() throws {
        let set = try ReplicaSet(names: Self.names(30), extra: ["--acme-challenges", "http-01"])
        try Self.issueEveryName(set, label: "folder, http-01")
        set.stop()
    }
}
