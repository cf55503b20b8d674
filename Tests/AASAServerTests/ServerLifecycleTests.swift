import AASALoop
import Dispatch
import Logging
import Synchronization
import TestSupport
import Testing

@testable import AASAServer
@testable import AASASiteServing

/// The server's components start in the builder's order and stop in reverse; the admin pages'
/// cache of what they derive from served files.
@Suite("server lifecycle")
struct ServerLifecycleTests {
    /// What the server did to the components, in order.
    final class Journal {
        var entries: [String] = []
    }

    /// Records what the server does to it in a journal shared by every component.
    final class Recorder: ServerComponent {
        let name: String
        let policy: FailurePolicy
        let failures = FailureReport()
        let journal: Journal
        let fails: Bool

        struct Refused: Error {}

        init(_ name: String, _ journal: Journal, fails: Bool = false, policy: FailurePolicy = .logAndContinue) {
            self.name = name
            self.journal = journal
            self.fails = fails
            self.policy = policy
        }

        func start() throws {
            if fails { throw Refused() }
            journal.entries.append("start \(name)")
        }

        func stop() { journal.entries.append("stop \(name)") }
        func waitUntilStopped() { journal.entries.append("wait \(name)") }
    }

    @Test("components start in order and stop in reverse: every one asked, then every one waited for")
    func order() throws {
        let journal = Journal()
        let components = ["loops", "admin", "watcher"].map { Recorder($0, journal) }
        try Server.start(components)
        Server.stop(components)
        #expect(
            journal.entries == [
                "start loops", "start admin", "start watcher",
                "stop watcher", "stop admin", "stop loops",
                "wait watcher", "wait admin", "wait loops",
            ])
    }

    @Test("a component that cannot start stops those started before it, and the rest never start")
    func startFailure() {
        let journal = Journal()
        let components = [Recorder("loops", journal), Recorder("acme", journal, fails: true), Recorder("cdn", journal)]
        #expect(throws: Recorder.Refused.self) { try Server.start(components) }
        #expect(journal.entries == ["start loops", "stop loops", "wait loops"])
    }

    @Test(
        "a part that fails or ends does what its policy says: stopServer makes the stop's status 1, logAndContinue not",
        arguments: [(FailurePolicy.stopServer, ["loops failed: its thread ended"], 1), (.logAndContinue, [], 0)]
            as [(FailurePolicy, [String], Int32)])
    func failurePolicy(policy: FailurePolicy, failed: [String], status: Int32) throws {
        let journal = Journal()
        let loops = Recorder("loops", journal, policy: policy)
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let server = Server(
            components: [loops, Recorder("admin", journal)], reload: {}, signals: nil, logger: logger,
            report: StartupReport(format: .text, logger: logger))
        try server.start()
        loops.failures.report("its thread ended")
        // One failure per part: what it says after the first is not counted again.
        loops.failures.report("its thread ended again")
        #expect(server.failed == failed)
        #expect(server.stop() == status)
    }

    @Test("a thread group's body that returns on its own is its failure; one that returns after stop is not")
    func threadGroupEnds() throws {
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let ends = ThreadGroup(name: "test-end", policy: .stopServer, bodies: [{ "it broke" }], stop: {})
        let gate = DispatchSemaphore(value: 0)
        let waits = ThreadGroup(
            name: "test-wait", policy: .stopServer,
            bodies: [
                {
                    gate.wait()
                    return "asked to stop"
                }
            ], stop: { gate.signal() })
        let server = Server(
            components: [ends, waits], reload: {}, signals: nil, logger: logger,
            report: StartupReport(format: .text, logger: logger))
        try server.start()
        #expect(eventually(10) { server.failed == ["test-end failed: it broke"] })
        #expect(server.stop() == 1)
        #expect(server.failed == ["test-end failed: it broke"])
    }

    @Test("a served file's derived value is made once, and the file used longest ago goes first")
    func servedFileCache() {
        let cache = ServedFileCache<PreparedFile, Int>(capacity: 2)
        let files = (0..<3).map {
            PreparedFile(
                body: Array("{\"n\": \($0)}".utf8), lastModified: 0, cacheControl: "", contentType: "application/json")
        }
        let made = Mutex(0)
        func value(_ index: Int) -> Int? {
            cache.value(for: files[index]) { _ in
                made.withLock { $0 += 1 }
                return index
            }
        }
        #expect(value(0) == 0 && value(1) == 1 && value(0) == 0)
        #expect(made.withLock { $0 } == 2)
        // The third file pushes out the second, used longest ago; the first stays.
        #expect(value(2) == 2 && value(0) == 0)
        #expect(made.withLock { $0 } == 3)
        #expect(value(1) == 1)
        #expect(made.withLock { $0 } == 4)
        // Nothing made is nothing kept: the next ask makes it again.
        let other = PreparedFile(
            body: Array("{}".utf8), lastModified: 0, cacheControl: "", contentType: "application/json")
        #expect(cache.value(for: other) { _ in nil } == nil)
        #expect(cache.value(for: other) { _ in 7 } == 7)
    }
}
