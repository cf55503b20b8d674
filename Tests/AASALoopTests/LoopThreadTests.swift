import Foundation
import Testing

@testable import AASALoop

/// Loop-bound state asserts its thread in debug builds (docs/ARCHITECTURE.md, "Threads").
@Suite("loop thread")
struct LoopThreadTests {
    @Test("before a claim anything goes; after it, the claiming thread passes")
    func claimingThreadPasses() async {
        // In a process of its own, so a check that traps fails this test instead of the run.
        await #expect(processExitsWith: .success) {
            var thread = LoopThread()
            thread.check()
            thread.claim()
            thread.check()
        }
    }

    #if DEBUG
        @Test("a loop's state touched from another thread than the one running it stops a debug build")
        func otherThreadStops() async {
            await #expect(processExitsWith: .failure) {
                let finished = DispatchSemaphore(value: 0)
                nonisolated(unsafe) var thread = LoopThread()
                let owner = Thread {
                    thread.claim()
                    finished.signal()
                }
                owner.start()
                finished.wait()
                thread.check()
            }
        }
    #endif
}
