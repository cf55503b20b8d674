import AASASystem
import AASATransport
import Foundation
@preconcurrency import Glibc
import Synchronization
import Testing

/// The HTTPS client's waits are bounded by their deadline, not by signals: a poll(2) that a
/// signal interrupts waits again for the time that remains (poll(2), EINTR).
@Suite("HTTPS client interrupted")
struct HTTPSClientInterruptTests {
    @Test("a handshake with a silent server interrupted by signals still takes its whole timeout")
    func interruptedHandshake() throws {
        Interrupter.install()
        // A listener that never accepts: the kernel completes the TCP handshake (the backlog),
        // and the TLS handshake then waits for an answer that never comes.
        let listener = try Listener.open(.loopback(port: 0), deferAcceptSeconds: 0, reusePort: false)
        defer { Posix.close(listener) }
        let port = Posix.localPort(listener)
        let thread = Mutex<pthread_t?>(nil)
        let outcome = Mutex<(failure: HTTPClientFailure?, seconds: Double)?>(nil)
        // The thread lives until the signals stop, so none is sent to a thread that has ended.
        let release = DispatchSemaphore(value: 0)
        let client = Thread {
            let current = Interrupter.prepareCurrentThread()
            thread.withLock { $0 = current }
            let start = MonotonicClock.now()
            let result = HTTPSClient(caFile: nil, timeout: 1).fetch(
                host: "localhost", port: port, address: ("127.0.0.1", port), path: "/", userAgent: "test")
            let seconds = Double(MonotonicClock.now() - start) / 1e9
            outcome.withLock {
                if case .failure(let failure) = result { $0 = (failure, seconds) } else { $0 = (nil, seconds) }
            }
            release.wait()
        }
        client.start()
        Interrupter.signal(for: 10, target: { thread.withLock { $0 } }, while: { outcome.withLock { $0 } == nil })
        release.signal()
        let (failure, seconds) = try #require(outcome.withLock { $0 })
        #expect(failure?.stage == .tls)
        #expect(failure?.message == "no TLS answer within 1 s")
        #expect(seconds >= 1)
    }
}
