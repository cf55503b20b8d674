import Foundation
@preconcurrency import Glibc
import Testing

@testable import AASALoop

/// An event loop whose epoll set breaks stops and says why, rather than spinning on the error.
@Suite("event loop failure")
struct EventLoopFailureTests {
    @Test("an epoll_wait error other than EINTR ends the loop and records the failure")
    func brokenEpoll() throws {
        let control = try LoopControl()
        let loop = try EventLoop(
            listener: -1, control: control, contents: nil, handler: NotFoundHandler(),
            settings: LoopSettings(timeouts: Timeouts(), limits: HTTPLimits(), logFormat: .text, accessLog: false))
        // A descriptor that is not an epoll set: epoll_wait fails with EINVAL.
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { for end in pipeEnds { close(end) } }
        #expect(dup2(pipeEnds[0], loop.epoll.fd) >= 0)
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let running = loop
        let thread = Thread {
            running.run()
            finished.signal()
        }
        thread.start()
        #expect(finished.wait(timeout: .now() + 5) == .success, "the loop kept running on a broken epoll set")
        #expect(control.failure?.contains("epoll_wait") == true)
    }
}
