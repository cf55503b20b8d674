extension String {
    /// Source text folded onto one line, for quoting a rule in a message or on a terminal.
    public var compacted: String {
        split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingSpaces }.joined(separator: " ")
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var result = drop(while: { $0 == " " || $0 == "\t" })
        while result.last == " " || result.last == "\t" { result.removeLast() }
        return result
    }
}
