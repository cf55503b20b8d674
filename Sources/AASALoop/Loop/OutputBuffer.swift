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

    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var count = 0
    private var borrowed: UnsafeRawBufferPointer?
    /// A large body that follows `bytes`, and the file that holds it (apart, so that counting
    /// bytes touches no reference count).
    private var tailBytes: UnsafeRawBufferPointer?
    private var tailOwner: PreparedFile?

    var tail: BorrowedBody? {
        guard let tailBytes, let tailOwner else { return nil }
        return BorrowedBody(bytes: tailBytes, owner: tailOwner)
    }

    var hasTail: Bool { tailBytes != nil }

    init() {
        capacity = Self.initialCapacity
        base = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 && borrowed == nil && tailBytes == nil }
    var byteCount: Int { (borrowed?.count ?? count) + (tailBytes?.count ?? 0) }

    /// The bytes to send before `tail`; valid until the next change.
    var bytes: UnsafeRawBufferPointer { borrowed ?? UnsafeRawBufferPointer(start: base, count: count) }

    /// Adds a response that stays where it is until it is sent or something follows it.
    func borrow(_ response: UnsafeRawBufferPointer) {
        if isEmpty { borrowed = response } else { append(response) }
    }

    /// Adds a file's body that stays in the file until it is sent or something follows it.
    func borrow(_ body: BorrowedBody) {
        settleTail()
        tailBytes = body.bytes
        tailOwner = body.owner
    }

    /// Copies a borrowed response in: its memory is about to change.
    func settle() {
        guard let response = borrowed else { return }
        borrowed = nil
        copy(response)
    }

    package func append(_ bytes: UnsafeRawBufferPointer) {
        settle()
        settleTail()
        copy(bytes)
    }

    /// Copies a borrowed body in: something follows it.
    private func settleTail() {
        guard let body = tailBytes else { return }
        tailBytes = nil
        settle()
        copy(body)
        tailOwner = nil
    }

    package func append(_ tail: [UInt8]) {
        tail.withUnsafeBytes { append($0) }
    }

    func append(_ tail: ArraySlice<UInt8>) {
        tail.withUnsafeBytes { append($0) }
    }

    /// Forgets what was queued; the memory stays (a pointer from `bytes` may still be in use
    /// by the caller that is closing the connection).
    func discard() {
        count = 0
        borrowed = nil
        if tailBytes != nil {
            tailBytes = nil
            tailOwner = nil
        }
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

    private func copy(_ tail: UnsafeRawBufferPointer) {
        guard let source = tail.baseAddress, !tail.isEmpty else { return }
        if count + tail.count > capacity {
            var grown = capacity * 2
            while grown < count + tail.count { grown *= 2 }
            let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
            larger.copyMemory(from: base, byteCount: count)
            base.deallocate()
            base = larger
            capacity = grown
        }
        (base + count).copyMemory(from: source, byteCount: tail.count)
        count += tail.count
    }
}
