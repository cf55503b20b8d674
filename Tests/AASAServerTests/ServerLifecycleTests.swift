import AASALoop
import Synchronization
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
        let journal: Journal
        let fails: Bool

        struct Refused: Error {}

        init(_ name: String, _ journal: Journal, fails: Bool = false) {
            self.name = name
            self.journal = journal
            self.fails = fails
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
