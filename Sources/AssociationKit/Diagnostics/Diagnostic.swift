/// One finding about a file: what, where (line, column, JSON pointer) and how bad.
public struct Diagnostic: Sendable, Hashable {
    public var code: DiagnosticCode
    public var severity: Severity
    public var message: String
    public var location: SourceLocation
    public var pointer: String

    public init(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, pointer: String,
        severity: Severity? = nil
    ) {
        self.code = code
        self.severity = severity ?? code.severity
        self.message = message
        self.location = location
        self.pointer = pointer
    }

    public init(_ code: DiagnosticCode, _ message: String, at value: JSONValue) {
        self.init(code, message, at: value.location, pointer: value.pointer)
    }

    /// The message with the JSON pointer of the offending value, as printed after the severity.
    public var messageWithPointer: String {
        "\(message) (at \(JSONPointer.display(pointer)))"
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// In file order, then by code, so output is stable.
    public func sortedByLocation() -> [Diagnostic] {
        sorted { ($0.location.offset, $0.code.rawValue) < ($1.location.offset, $1.code.rawValue) }
    }
}
