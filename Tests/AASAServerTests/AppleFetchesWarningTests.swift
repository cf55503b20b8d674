import Logging
import Synchronization
import Testing

@testable import AASALoop
@testable import AASASiteServing

/// The warning about Apple's fetcher asking for a host no site serves, against the clock the
/// fetches carry: at most one a minute, saying how many went unlogged, and never silenced.
@Suite("Apple's fetches for unknown hosts: the warning's rate")
struct AppleFetchesWarningTests {
    /// Keeps each warning's metadata.
    final class Lines: Sendable {
        let lines = Mutex<[Logger.Metadata]>([])
        var all: [Logger.Metadata] { lines.withLock { $0 } }
    }

    struct Capture: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            lines.lines.withLock { $0.append(event.metadata ?? [:]) }
        }
    }

    @Test("one warning a minute whatever the flood; the next one counts what went unlogged")
    func rateLimited() {
        let lines = Lines()
        let fetches = AppleFetches(logger: Logger(label: "test") { _ in Capture(lines: lines) })
        let start = 1_800_000_000
        for index in 0..<1000 {
            fetches.record(
                site: nil, host: "made-up-\(index).example", status: 404, etag: nil, now: start + index / 100)
        }
        #expect(lines.all.count == 1)
        #expect(lines.all.first?["host"] == "made-up-0.example")
        #expect(lines.all.first?["not_logged_since_last"] == nil)
        // A site's own fetches never warn, nor count as unknown.
        fetches.record(site: "example.com", host: "example.com", status: 200, etag: nil, now: start + 30)
        #expect(lines.all.count == 1)
        // A minute on, a real domain missing its folder is said again, with the flood's count.
        fetches.record(site: nil, host: "real.example", status: 404, etag: nil, now: start + 60)
        #expect(lines.all.count == 2)
        #expect(lines.all.last?["host"] == "real.example")
        #expect(lines.all.last?["not_logged_since_last"].map { "\($0)" } == "999")
        #expect(fetches.counts().unknownHosts == 1001)
        // A clock that went back does not hold the warning off either.
        fetches.record(site: nil, host: "again.example", status: 404, etag: nil, now: start)
        #expect(lines.all.count == 3)
    }
}
