/// The result of reading bytes as JSON: the value if the bytes are JSON, and what was found.
public struct JSONDocument: Sendable {
    /// The value, when the bytes are JSON (no error).
    public var root: JSONValue?
    /// The value as read past the mistakes the reader recovers from (comments, trailing commas,
    /// single and curly quotes), so a validator can report what is inside too; equal to `root`
    /// when there were none, nil when reading stopped. Never serve or trust it: the file is
    /// still not JSON.
    public var recoveredRoot: JSONValue?
    public var diagnostics: [Diagnostic]

    /// Reads `bytes` strictly by RFC 8259. Never traps: every malformed input gives a
    /// diagnostic at the exact character.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth) -> JSONDocument {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        do {
            let root = try parser.parseDocument()
            let isJSON = parser.recoveredCount == 0
            return JSONDocument(root: isJSON ? root : nil, recoveredRoot: root, diagnostics: parser.findings)
        } catch {
            let location = SourceLocation.of(offset: error.offset, in: bytes)
            let pointer = parser.currentPointer
            let failure = Diagnostic(error.code, error.message, at: location, pointer: pointer)
            return JSONDocument(root: nil, recoveredRoot: nil, diagnostics: parser.findings + [failure])
        }
    }
}
