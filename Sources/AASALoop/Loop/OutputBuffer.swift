/// What a loop has to send to the connection it is serving, written in one call at the end
/// of the batch. Usually that is one whole response from the `ResponseCache`, which is only
/// borrowed: sent from the cache's memory, never copied. Anything added after it copies it
/// in first (pipelined requests), and so does the cache before it rebuilds an entry. A large
/// body last in the batch is borrowed from its prepared file (`tail`) and sent after the
/// rest with one writev(2); something added after it copies it in.
package final class OutputBuffer {
    static let initialCapacity = 16 * 1024
    /// A larger buffer (an admin page, a long pipeline) is given back once it is sent.
    static let retainedCapacity = 1024 * 1024

    // Internal, not private, as are the stored properties of `Connection`, `DeadlineQueue` and
    // `BorrowedTail`: cross-module optimization inlines the loop's reads of them into the
    // target that specializes the loop only so (docs/development.md, "Benchmarks").
    var base: UnsafeMutableRawPointer
    var capacity: Int
    var count = 0
    var borrowed: UnsafeRawBufferPointer?
    /// A large body that follows `bytes`.
    var tail = BorrowedTail()

    init() {
        capacity = Self.initialCapacity
        base = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 && borrowed == nil && tail.bytes == nil }
    var byteCount: Int { (borrowed?.count ?? count) + tail.count }

    /// The bytes to send before `tail`; valid until the next change.
    var bytes: UnsafeRawBufferPointer { borrowed ?? UnsafeRawBufferPointer(start: base, count: count) }

    /// Adds a response that stays where it is until it is sent or something follows it.
    func borrow(_ response: UnsafeRawBufferPointer) {
        if isEmpty { borrowed = response } else { append(response) }
    }

    /// Adds a body that stays in `owner`'s memory (a prepared file's) until it is sent or
    /// something follows it.
    func borrow(_ body: UnsafeRawBufferPointer, of owner: AnyObject) {
        settleTail()
        tail = BorrowedTail(body, of: owner)
    }

    /// Copies a borrowed response in: its memory is about to change.
    package func settle() {
        guard let response = borrowed else { return }
        borrowed = nil
        copy(response)
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        settle()
        settleTail()
        copy(bytes)
    }

    /// Copies a borrowed body in: something follows it.
    private func settleTail() {
        guard let body = tail.bytes else { return }
        settle()
        copy(body)
        tail.removeAll()
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    func append(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Forgets what was queued; the memory stays (a pointer from `bytes` may still be in use
    /// by the caller that is closing the connection).
    func discard() {
        count = 0
        borrowed = nil
        tail.removeAll()
    }

    /// After a send: empty again, and no larger than `retainedCapacity`.
    func removeAll() {
        discard()
        if capacity > Self.retainedCapacity {
            base.deallocate()
            capacity = Self.initialCapacity
            base = .allocate(byteCount: capacity, alignment: 16)
        }
    }

    private func copy(_ added: UnsafeRawBufferPointer) {
        guard let source = added.baseAddress, !added.isEmpty else { return }
        if count + added.count > capacity {
            var grown = capacity * 2
            while grown < count + added.count { grown *= 2 }
            let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
            larger.copyMemory(from: base, byteCount: count)
            base.deallocate()
            base = larger
            capacity = grown
        }
        (base + count).copyMemory(from: source, byteCount: added.count)
        count += added.count
    }
}
