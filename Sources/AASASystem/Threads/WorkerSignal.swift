import Foundation

/// How worker threads wait for due work (ACME orders, CDN checks): `next` looks at the
/// shared state under the signal's lock and takes a job, asks to wait, or says stop;
/// `wake()` takes the same lock to broadcast, so a change made just before it is never
/// missed by a worker between its look and its wait (a broadcast without the lock can fall
/// into that gap and leave the worker asleep until its timeout).
public final class WorkerSignal: @unchecked Sendable {
    public enum Step<Job> {
        case take(Job)
        /// Nothing due for this many seconds (or until `wake()`).
        case wait(Double)
        case stop
    }

    // NSCondition is thread-safe; it is only ever used through lock() and unlock().
    private let condition = NSCondition()

    public init() {}

    /// Blocks until `next` takes a job (returned) or says stop (nil).
    public func next<Job>(_ next: () -> Step<Job>) -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch next() {
            case .take(let job): return job
            case .stop: return nil
            case .wait(let seconds): _ = condition.wait(until: Date().addingTimeInterval(min(max(seconds, 0.01), 3600)))
            }
        }
    }

    public func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}
