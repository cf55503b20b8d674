/// The result of reading bytes as JSON: the value if the bytes are JSON, and what was found.
public struct JSONDocument: Sendable {
    public var root: JSONValue?
    public var diagnostics: [Diagnostic]

    /// Reads `bytes` strictly by RFC 8259. Never traps: every malformed input gives a
    /// diagnostic at the exact character.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth) -> JSONDocument {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        do {
            let root = try parser.parseDocument()
            return JSONDocument(root: root, diagnostics: parser.warnings)
        } catch {
            let location = SourceLocation.of(offset: error.offset, in: bytes)
            let pointer = parser.currentPointer
            let failure = Diagnostic(error.code, error.message, at: location, pointer: pointer)
            return JSONDocument(root: nil, diagnostics: parser.warnings + [failure])
        }
    }
}
