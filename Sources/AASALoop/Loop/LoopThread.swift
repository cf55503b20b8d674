@preconcurrency import Glibc

/// The thread a loop runs on, checked in debug builds wherever loop-bound state is touched:
/// the loop's target turns off the run-time exclusivity checks in release builds
/// (Package.swift), which is sound only while one thread owns the loop, its connections
/// and its handler (docs/ARCHITECTURE.md, "Threads").
package struct LoopThread {
    private var owner: pthread_t?

    package init() {}

    /// From here on the calling thread owns the loop.
    package mutating func claim() {
        owner = pthread_self()
    }

    /// Traps in debug builds when called off the owning thread (before `claim`, a loop is
    /// still being set up by the thread that made it, and anything goes).
    @inline(__always)
    package func check(_ function: StaticString = #function) {
        assert(owner.map { pthread_equal($0, pthread_self()) != 0 } ?? true, "\(function) off the loop's thread")
    }
}
