import AASASystem
import Foundation
import TestSupport
import Testing

@testable import AASAStore

/// Start-up with 10,000 certificates in each engine (issue 47's figure): a new store lists
/// every key and reads every value, as a replica starting does. A measurement, not a check of
/// speed: `AASA_STORE_BENCH=1` runs it and it prints the times.
@Suite(
    "Store start-up with 10,000 certificates",
    .enabled(if: ProcessInfo.processInfo.environment["AASA_STORE_BENCH"] != nil, "a measurement: AASA_STORE_BENCH=1"))
struct StoreStartupBench {
    static let count = 10_000

    /// A certificate's three values at their real sizes: a P-256 key, a chain of two, the issuer.
    static func certificate(_ index: Int) -> [(StoreKey, [UInt8])] {
        let name = "host-\(index).customers.example.com"
        return [
            (name + "/privkey.pem", [UInt8](repeating: 0x41, count: 241)),
            (name + "/fullchain.pem", [UInt8](repeating: 0x42, count: 2_900)),
            (name + "/issuer", Array("https://acme-v02.api.letsencrypt.org/directory\n".utf8)),
        ].compactMap { text, value in StoreKey(text).map { ($0, value) } }
    }

    static func measure(
        _ name: String, fill: (_ certificate: [(StoreKey, [UInt8])]) throws -> Void,
        open: () throws -> any SharedStore
    ) throws {
        var start = Date()
        for index in 0..<count { try fill(certificate(index)) }
        let written = Date().timeIntervalSince(start)
        start = Date()
        let store = try open()
        let opened = Date().timeIntervalSince(start)
        start = Date()
        let keys = try store.list(prefix: "")
        let listed = Date().timeIntervalSince(start)
        start = Date()
        let values = try store.loadAll(prefix: "")
        let loaded = Date().timeIntervalSince(start)
        #expect(keys.count == 3 * count && values.count == 3 * count)
        print(
            "\(name): \(count) certificates written in \(String(format: "%.1f", written)) s; a new store opened in "
                + "\(Int(opened * 1000)) ms, listed \(keys.count) keys in \(Int(listed * 1000)) ms, read every value "
                + "in \(Int(loaded * 1000)) ms; \(store.health.queries) queries")
        store.close()
    }

    @Test("folder") func folder() throws {
        let temporary = try TemporaryFolder("store-bench")
        let folder = temporary.path("acme")
        let filler = FolderStore(folder: folder)
        // Filled without fsync(2) (7 a certificate): the figure is the start-up's.
        try Self.measure(
            "folder", fill: { try filler.storeAll($0) { _, _ throws(SystemError) in } },
            open: { try openStore(.folder(folder), keyFile: nil) })
    }

    @Test("PostgreSQL", .enabled(if: PostgresCluster.isInstalled, "PostgreSQL is not installed"))
    func postgres() throws {
        let cluster = try PostgresStoreTable.shared.get()
        let uri = cluster.uri(try cluster.makeDatabase())
        let filler = try PostgresStore(uri: uri)
        defer { filler.close() }
        try Self.measure("PostgreSQL", fill: { try filler.storeAll($0) }, open: { try PostgresStore(uri: uri) })
    }
}
