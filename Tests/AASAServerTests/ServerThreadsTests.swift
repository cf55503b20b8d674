import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

@testable import AASAServer

/// Every thread of the running server belongs to a part that joins it at stop: the whole
/// server, with every part that runs on loopback (two sites' loops on HTTP and HTTPS, the
/// admin loop, the certificate loader, ACME's workers with the on-demand ask and the challenge
/// lookup, a folder store, the CDN watch run through `WatchLeader`, the reloader's grace
/// thread, the file watcher), is started and stopped in this process again and again, and
/// after each stop no thread it started is left (/proc/self/task, by name).
@Suite("every thread owned", .serialized)
struct ServerThreadsTests {
    /// The threads of this process now, by id, with their names (/proc/self/task/TID/comm).
    static func threads() -> [Int: String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var found: [Int: String] = [:]
        for task in tasks {
            guard let id = Int(task),
                let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            else { continue }
            found[id] = name.trimmingCharacters(in: .newlines)
        }
        return found
    }

    /// The server's threads (named `aasa-…`) that were not there at `baseline`, as "name (tid)".
    static func serverThreads(since baseline: [Int: String]) -> [String] {
        threads().filter { baseline[$0.key] == nil && $0.value.hasPrefix("aasa-") }
            .map { "\($0.value) (\($0.key))" }.sorted()
    }

    /// A port nothing listens on: every request the parts make there is refused at once.
    static func closedPort() throws -> Int {
        let (fd, port) = try LoopbackSocket.listen()
        close(fd)
        return port
    }

    static func settings(_ folder: TemporaryFolder, store: String) throws -> ServerConfiguration {
        let closed = try closedPort()
        var settings = ServerConfiguration()
        try settings.applyEnvironment([
            "AASA_SITES": folder.path("sites"), "AASA_CERTS": folder.path("certs"), "AASA_HTTP": "127.0.0.1:0",
            "AASA_HTTPS": "127.0.0.1:0", "AASA_ADMIN": "127.0.0.1:0", "AASA_WORKERS": "2", "AASA_ACCESS_LOG": "off",
            "AASA_ACME": "on", "AASA_ACME_DIRECTORY": "https://127.0.0.1:\(closed)/directory",
            "AASA_ACME_CHALLENGES": "http-01", "AASA_ACME_PREFLIGHT": "off", "AASA_ACME_ON_DEMAND": "on",
            "AASA_ACME_ON_DEMAND_ASK": "http://127.0.0.1:\(closed)/ask", "AASA_STORE": store,
            "AASA_CDN_WATCH": "on", "AASA_CDN_WATCH_URL": "https://127.0.0.1:\(closed)/cdn/",
        ])
        return settings
    }

    /// What each part's threads are called while it runs.
    static let expected: Set<String> = [
        "aasa-loop", "aasa-admin", "aasa-certs", "aasa-acme-0", "aasa-acme-ask-0", "aasa-acme-look",
        "aasa-leader", "aasa-cdn-0", "aasa-grace", "aasa-watch",
    ]

    @Test("the whole server started and stopped in process five times leaves no thread behind")
    func noThreadLeft() throws {
        let folder = try TemporaryFolder()
        try rounds(folder, store: folder.path("store"), expected: Self.expected)
    }

    @Test(
        "with a PostgreSQL store, its listener is joined too and no thread is left",
        .enabled(if: PostgresCluster.isInstalled, "PostgreSQL is not installed"))
    func noThreadLeftWithPostgres() throws {
        let folder = try TemporaryFolder()
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let store = cluster.uri(try cluster.makeDatabase())
        try rounds(folder, store: store, expected: Self.expected.union(["aasa-store-lsn"]), count: 2)
    }

    /// Starts and stops the server `count` times; each time every `expected` thread runs, and
    /// none of the server's is left once `stop` returns.
    func rounds(_ folder: TemporaryFolder, store: String, expected: Set<String>, count: Int = 5) throws {
        let site = "threads.example.com"
        _ = try folder.write("sites/\(site)/apple-app-site-association", SiteFixtures.oneAppAASA())
        try TestCertificates(in: folder).issue(site, names: [site])
        let settings = try Self.settings(folder, store: store)
        let logger = Logger(label: "threads") { _ in SwiftLogNoOpLogHandler() }
        let baseline = Self.threads()
        for round in 1...count {
            let server = try ServerBuilder(
                settings: settings, logger: logger, report: StartupReport(format: .text, logger: logger)
            ).build(configFile: nil, ownsProcess: false)
            try server.start()
            var running: Set<String> = []
            let started = eventually(20) {
                running = Set(Self.serverThreads(since: baseline).map { String($0.prefix { $0 != " " }) })
                return running.isSuperset(of: expected)
            }
            #expect(started, "round \(round): missing \(expected.subtracting(running).sorted())")
            // On a thread of its own: a part that is not stopped but joined would hang the test.
            let status = Mutex<Int32?>(nil)
            // Used by that thread alone until it is done.
            nonisolated(unsafe) let stoppable = server
            let stopping = Thread {
                let code = stoppable.stop()
                status.withLock { $0 = code }
            }
            stopping.start()
            let stopped = eventually(30) { status.withLock { $0 } != nil }
            #expect(stopped, "round \(round): stop hangs; running: \(Self.serverThreads(since: baseline))")
            guard stopped else { return }
            #expect(status.withLock { $0 } == 0, "round \(round): failed parts \(server.failed)")
            // Joined threads are gone once stop returns; the kernel may take a moment to drop them.
            var left: [String] = []
            let joined = eventually(2) {
                left = Self.serverThreads(since: baseline)
                return left.isEmpty
            }
            #expect(joined, "round \(round): threads left after stop: \(left)")
        }
    }

    /// Ways to run work that no part would join: only `ThreadSet` starts threads.
    static let unowned =
        #"\bThread\s*[({]|detachNewThread|pthread_create|asyncAfter|DispatchSource|DispatchQueue\(|\.async\s*[({]|\bTimer\."#

    @Test("no thread, timer or queued work is started in Sources but through a ThreadSet")
    func onlyThreadSets() throws {
        let unowned = try Regex(Self.unowned)
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        var found: [String] = []
        for file in files where file.hasSuffix(".swift") && file != "AASASystem/Threads/ThreadSet.swift" {
            let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains(unowned) {
                found.append("Sources/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(files.contains("AASASystem/Threads/ThreadSet.swift"))
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
