/// A large body still to send after the bytes queued before it, borrowed from its owner's
/// memory (a prepared file's) instead of copied: the owner is held for as long as its bytes
/// are queued (its storage is never mutated, so its address holds while it lives). The one
/// borrowed tail that both the loop's `OutputBuffer` and a connection's unsent output keep;
/// only the last body of a batch can stay borrowed (whatever follows it copies it in).
struct BorrowedTail {
    /// What is left to send; nil when there is none. Apart from the owner, so that counting
    /// bytes touches no reference count.
    var bytes: UnsafeRawBufferPointer?
    var owner: AnyObject?

    var count: Int { bytes?.count ?? 0 }

    init() {}

    init(_ bytes: UnsafeRawBufferPointer, of owner: AnyObject) {
        self.bytes = bytes
        self.owner = owner
    }

    mutating func removeAll() {
        guard bytes != nil else { return }
        bytes = nil
        owner = nil
    }

    /// What is left after `sent` bytes of it went out.
    mutating func drop(_ sent: Int) {
        guard let bytes, sent > 0 else { return }
        if sent >= bytes.count {
            removeAll()
        } else {
            self.bytes = UnsafeRawBufferPointer(rebasing: bytes[sent...])
        }
    }
}
