/// What `stat` says of a stored value: its size in bytes and when it was last written
/// (seconds since 1970, UTC; the file's mtime or the row's `modified`).
public struct StoreEntryInfo: Sendable, Equatable {
    public var size: Int
    public var modified: Double

    public init(size: Int, modified: Double) {
        self.size = size
        self.modified = modified
    }
}
