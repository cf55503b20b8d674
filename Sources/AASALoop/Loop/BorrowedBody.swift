/// A large file body sent from the prepared file's own memory instead of a copy: the file
/// is held for as long as its bytes are queued (its storage is never mutated, so its address
/// holds while it lives).
struct BorrowedBody {
    let bytes: UnsafeRawBufferPointer
    let owner: PreparedFile

    /// What is left after `count` bytes were sent; nil when all of it was.
    func dropping(_ count: Int) -> BorrowedBody? {
        guard count < bytes.count else { return nil }
        return BorrowedBody(bytes: UnsafeRawBufferPointer(rebasing: bytes[count...]), owner: owner)
    }
}
