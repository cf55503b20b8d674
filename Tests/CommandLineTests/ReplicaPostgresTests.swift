import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// The replica tests with PostgreSQL as the store (`--store postgres://…`, a throwaway
/// cluster from Debian's `postgresql`): the same guarantees as with the folder, and serving
/// that goes on while the database is stopped (docs/acme.md, "Several replicas").
@Suite(
    "Several replicas, one PostgreSQL store", .serialized,
    .enabled(if: HAProxy.available && PostgresCluster.isInstalled && ReplicaSet.serverHasStore))
struct ReplicaPostgresTests {
    @Test("30 names, PostgreSQL store: each ordered once, valid at the first attempt, served by all within 2 s")
    func thirtyNames() throws {
        let cluster = try PostgresCluster()
        let database = try cluster.makeDatabase()
        let set = try ReplicaSet(
            names: ReplicaTests.names(30, "pg.example.com"),
            extra: ["--acme-challenges", "tls-alpn-01", "--store", cluster.uri(database)], ownCertificates: true)
        try ReplicaTests.issueEveryName(set, label: "postgres, tls-alpn-01")
        let perChallenge = try ReplicaTests.queriesPerChallenge(set)
        let ahead = try ReplicaTests.queriesPerChallenge(set, results: ["prefetched"])
        print(
            "replicas (postgres, tls-alpn-01): store queries per challenge: \(String(format: "%.2f", perChallenge)) "
                + "looked up, \(String(format: "%.2f", ahead)) read ahead")
        #expect(perChallenge <= 2)
        set.stop()
    }

    @Test("PostgreSQL stopped for 30 s under traffic: 0 failed requests, aasa_store_up 0, then an order works again")
    func outage() throws {
        let cluster = try PostgresCluster()
        let database = try cluster.makeDatabase()
        let names = ReplicaTests.names(3, "outage.example.com")
        let set = try ReplicaSet(
            names: names, extra: ["--acme-challenges", "http-01", "--store", cluster.uri(database)],
            ownCertificates: true)
        let issued = ReplicaTests.waitUntilAllServe(set, within: 60)
        #expect(issued.seconds.count == names.count, "\(set.logs.suffix(4000))")

        cluster.stop()
        let stopped = Date()
        var requests = 0
        var failed = 0
        var sawDown = Array(repeating: false, count: set.ports.count)
        while Date().timeIntervalSince(stopped) < 30 {
            for index in set.ports.indices {
                let served = set.served(by: index, names)
                requests += names.count
                failed += names.count - served.count
                if !sawDown[index],
                    let metrics = try? set.admin(index, "/metrics"),
                    ReplicaTests.sample(metrics, "aasa_store_up") == 0
                {
                    sawDown[index] = true
                }
            }
        }
        print("replicas (postgres): \(requests) requests while PostgreSQL was stopped for 30 s, \(failed) failed")
        #expect(failed == 0)
        #expect(sawDown.allSatisfy { $0 }, "\(set.logs.suffix(4000))")
        #expect(try set.admin(0, "/healthz").contains("store: out of reach"))

        try cluster.start()
        #expect(
            eventually(30) {
                set.ports.indices.allSatisfy {
                    (try? set.admin($0, "/metrics")).flatMap { ReplicaTests.sample($0, "aasa_store_up") } == 1
                }
            }, "\(set.logs.suffix(4000))")
        // A new site after the outage is ordered once and served by every replica.
        let late = "late.outage.example.com"
        try set.folder.write("sites/\(late)/apple-app-site-association", ProbeTests.apple)
        #expect(
            eventually(60) { set.ports.indices.allSatisfy { set.served(by: $0, [late]) == [late] } },
            "\(set.logs.suffix(4000))")
        #expect(set.orders(for: late) == 1)
        set.stop()
    }

    @Test(
        "the watches over PostgreSQL: one replica runs them, the others show its results; it dies, another takes over")
    func watches() throws {
        let cluster = try PostgresCluster()
        let database = try cluster.makeDatabase()
        try ReplicaTests.watchesOnce(store: ["--store", cluster.uri(database)], ownCertificates: true)
    }

    @Test(
        "a replica killed (kill -9) while it holds an order: its session's lock goes, another replica issues the name")
    func killedWhileOrdering() throws {
        let cluster = try PostgresCluster()
        let database = try cluster.makeDatabase()
        try ReplicaTests.killedWhileOrdering(store: ["--store", cluster.uri(database)], ownCertificates: true)
    }

    @Test("a CA failure for one name over PostgreSQL: no replica re-orders it within the backoff")
    func failureBackoff() throws {
        let cluster = try PostgresCluster()
        let database = try cluster.makeDatabase()
        try ReplicaTests.failureBackoff(store: ["--store", cluster.uri(database)], ownCertificates: true)
    }
}
