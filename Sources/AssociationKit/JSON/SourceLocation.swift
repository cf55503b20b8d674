/// Where a value sits in a file: 1-based line and column, and the byte offset.
///
/// Columns count Unicode scalars from the start of the line, so a column matches what an
/// editor shows for the usual file; the byte offset is kept for slicing the source text.
public struct SourceLocation: Sendable, Hashable, Comparable {
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public static let start = SourceLocation(line: 1, column: 1, offset: 0)

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.offset < rhs.offset
    }

    /// The location of `offset` in `bytes`, computed from the start (used for the one error
    /// that stops a parse; values get theirs incrementally from `LineTracker`).
    public static func of(offset: Int, in bytes: [UInt8]) -> SourceLocation {
        var tracker = LineTracker()
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            if bytes[index] == UInt8(ascii: "\n") { tracker.newLine(startingAt: index + 1) }
            index += 1
        }
        return tracker.location(of: offset, in: bytes)
    }
}
