import Dispatch

/// `transform` of each of `0..<count` on every core, in order: Dispatch's concurrentPerform,
/// which returns before this does (no work is left on a queue: docs/ARCHITECTURE.md,
/// "Threads"). The one owner of the buffer the threads write to: each slot is written by one
/// thread, and every slot is deinitialized before the buffer is freed (freeing it alone kept
/// each result, and what it held, alive for good).
package enum ConcurrentMap {
    package static func map<Element: Sendable>(_ count: Int, _ transform: (Int) -> Element) -> [Element] {
        guard count > 0 else { return [] }
        let results = UnsafeMutableBufferPointer<Element?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            _ = results.deinitialize()
            results.deallocate()
        }
        nonisolated(unsafe) let slots = results
        withoutActuallyEscaping(transform) { transform in
            nonisolated(unsafe) let transform = transform
            DispatchQueue.concurrentPerform(iterations: count) { position in slots[position] = transform(position) }
        }
        return results.compactMap { $0 }
    }
}
