import Foundation
@preconcurrency import Glibc

@testable import AASALoop
@testable import AASAServer
@testable import AASASiteServing
@testable import AASASystem
@testable import AASATransport

/// The loop's cost (docs/security.md): random bytes split at random points, sent through a
/// socket pair into a real `EventLoop`'s connection logic, with a peer that reads the answers
/// only now and then. After every step the bytes the loop holds for the connection stay
/// within the bounds: the head limits plus one read in, the high-water mark plus one
/// response out.
extension FuzzTargets {
    /// One loop serving `example.com` (a file of about 100 KiB, so a few answers reach the
    /// high-water mark), driven on the fuzzer's thread: `run()` is never called.
    final class LoopHarness: @unchecked Sendable {
        let loop: EventLoop<SiteHandler>
        let limits = HTTPLimits()

        init() {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-fuzz-loop-\(getpid())")
            let site = folder.appendingPathComponent("sites/example.com")
            try? FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            let components = (0..<5_000).map { #"{"/": "/p\#($0)/*"}"# }.joined(separator: ",")
            let file =
                #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": ["#
                + components + "]}]}}"
            try? Data(file.utf8).write(to: site.appendingPathComponent("apple-app-site-association"))
            var configuration = ServerConfiguration()
            configuration.sites = folder.appendingPathComponent("sites").path
            guard let snapshot = SnapshotLoader.load(configuration, previous: nil).snapshot,
                let control = try? LoopControl(),
                let loop = try? EventLoop(
                    listener: -1, control: control, contents: SnapshotBox(snapshot.serving),
                    handler: SiteHandler(acme: nil, appleFetches: nil, appleFetcherAgent: []),
                    settings: LoopSettings(
                        timeouts: Timeouts(), limits: HTTPLimits(), logFormat: .text, accessLog: false))
            else { fatalError("the loop harness did not start") }
            self.loop = loop
        }

        /// What the loop may hold for one connection, in and out.
        var inputBound: Int { limits.requestLineBytes + limits.headerBytes + 2 + EventLoop<SiteHandler>.scratchSize }
        var outputBound: Int { loop.settings.outputHighWater + 132 * 1024 }
    }

    nonisolated(unsafe) static var harness: LoopHarness?

    /// The first 8 bytes seed the splits and the peer's reading; the rest is the stream.
    @Sendable static func loop(_ data: UnsafeBufferPointer<UInt8>) {
        guard data.count > 8 else { return }
        if harness == nil { harness = LoopHarness() }
        guard let harness else { return }
        let loop = harness.loop
        var random = data[..<8].reduce(UInt64(0x9E37_79B9_7F4A_7C15)) { ($0 << 8 | UInt64($1)) &* 0x100_0000_01B3 } | 1
        func next(_ bound: Int) -> Int {
            random ^= random << 13
            random ^= random >> 7
            random ^= random << 17
            return Int(random % UInt64(bound))
        }
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { return }
        let (server, client) = (ends[0], ends[1])
        _ = fcntl(server, F_SETFL, fcntl(server, F_GETFL) | O_NONBLOCK)
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        defer { Glibc.close(client) }
        loop.adopt(server, peer: sockaddr_storage(), secure: false, now: MonotonicClock.now())
        let stream = UnsafeBufferPointer(rebasing: data[8...])
        var offset = 0
        var sink = [UInt8](repeating: 0, count: 65_536)
        // Repeating the stream makes a short input a long one (a flood), up to 1 MiB.
        let total = min(1 << 20, stream.count * (1 + next(64)))
        let reads = next(4)
        while offset < total, let connection = loop.connections[Int(server)] {
            let length = min(total - offset, 1 + next(next(2) == 0 ? 64 : 70_000))
            var piece = [UInt8](repeating: 0, count: length)
            for index in 0..<length { piece[index] = stream[(offset + index) % stream.count] }
            let sent = piece.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if sent > 0 { offset += sent }
            // A peer that reads sometimes, always, or never.
            if reads > 0 && next(reads) == 0 {
                _ = sink.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            }
            step(loop, connection)
            check(
                connection.pending.count <= harness.inputBound,
                "\(connection.pending.count) bytes of input held (bound \(harness.inputBound))")
            let queued = connection.output.count - connection.outputOffset + loop.out.byteCount
            check(queued <= harness.outputBound, "\(queued) bytes of output held (bound \(harness.outputBound))")
            if sent <= 0 && reads == 0 { break }  // a peer that never reads, and a full socket
        }
        if let connection = loop.connections[Int(server)] { loop.close(connection) }
        loop.yielded.removeAll()
    }

    /// One wake-up's work for the connection, as `run()` does it: readiness, then the
    /// turns it put off.
    private static func step(_ loop: EventLoop<SiteHandler>, _ connection: Connection) {
        let now = MonotonicClock.now()
        loop.handle(Epoll.readable | Epoll.writable, data: connection.eventData, now: now)
        let carried = loop.yielded
        loop.yielded = []
        loop.continueYielded(carried, now: now)
    }
}
