/// Turns byte offsets into line and column in one forward pass.
///
/// Columns are counted incrementally from the last asked offset, so asking for every value of
/// a minified single-line file stays linear instead of rescanning the line each time.
struct LineTracker {
    private(set) var line = 1
    private var lineStart = 0
    private var cursorOffset = 0
    private var cursorColumn = 1

    mutating func newLine(startingAt offset: Int) {
        line += 1
        lineStart = offset
        cursorOffset = offset
        cursorColumn = 1
    }

    mutating func location(of offset: Int, in bytes: [UInt8]) -> SourceLocation {
        if offset < cursorOffset {
            cursorOffset = lineStart
            cursorColumn = 1
        }
        var index = cursorOffset
        var column = cursorColumn
        let end = min(offset, bytes.count)
        while index < end {
            // UTF-8 continuation bytes (10xxxxxx) do not start a new scalar.
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        cursorOffset = offset
        cursorColumn = column
        return SourceLocation(line: line, column: column, offset: offset)
    }
}
