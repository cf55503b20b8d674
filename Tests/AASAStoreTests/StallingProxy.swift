import Foundation
@preconcurrency import Glibc
import Synchronization
import TestSupport

/// A loopback TCP proxy to `target` that can stop forwarding without closing anything: its
/// kernel keeps acknowledging what the client sends (keepalives included), as a middlebox
/// whose far side vanished would, so only a deadline on the client's side can tell. One thread
/// polls every socket; `stop()` ends it and closes them.
final class StallingProxy: Sendable {
    let port: Int
    private let listener: Int32
    private let target: Int
    private let stalled = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(to target: Int) throws {
        (listener, port) = try LoopbackSocket.listen()
        self.target = target
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.start()
    }

    /// From now on nothing is forwarded either way, and new connections are held unanswered.
    func stall() { stalled.store(true, ordering: .relaxed) }

    func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        finished.wait()
    }

    private func run() {
        // Each accepted socket and its peer toward the target (-1 once stalled).
        var pairs: [(client: Int32, server: Int32)] = []
        defer {
            for pair in pairs {
                close(pair.client)
                if pair.server >= 0 { close(pair.server) }
            }
            close(listener)
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !stopping.load(ordering: .relaxed) {
            let stalledNow = stalled.load(ordering: .relaxed)
            var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            if !stalledNow {
                for pair in pairs {
                    descriptors.append(pollfd(fd: pair.client, events: Int16(POLLIN), revents: 0))
                    descriptors.append(pollfd(fd: pair.server, events: Int16(POLLIN), revents: 0))
                }
            }
            guard poll(&descriptors, nfds_t(descriptors.count), 100) > 0 else { continue }
            if descriptors[0].revents != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    let server = stalledNow ? -1 : ((try? LoopbackSocket.connect(port: target)) ?? -1)
                    pairs.append((client, server))
                }
            }
            guard !stalledNow else { continue }
            var ended = Set<Int>()
            for (index, descriptor) in descriptors.enumerated().dropFirst() where descriptor.revents != 0 {
                let pair = pairs[(index - 1) / 2]
                let (from, to) = index % 2 == 1 ? (pair.client, pair.server) : (pair.server, pair.client)
                let count = read(from, &buffer, buffer.count)
                if count > 0 { _ = write(to, buffer, count) } else { ended.insert((index - 1) / 2) }
            }
            for index in ended.sorted(by: >) {
                close(pairs[index].client)
                if pairs[index].server >= 0 { close(pairs[index].server) }
                pairs.remove(at: index)
            }
        }
    }
}
