/// One finding about a file: what, where (line, column, JSON pointer) and how bad.
public struct Diagnostic: Sendable, Hashable {
    public var code: DiagnosticCode
    public var severity: Severity
    public var message: String
    public var location: SourceLocation
    /// The JSON pointer of the offending value (RFC 6901); "" is the whole document.
    public var pointer: String
    /// Set while the pointer is still to be resolved from the offset of the offending value.
    var pendingValueOffset: Int?

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

    /// A diagnostic whose pointer is that of the value starting at `valueOffset`.
    init(_ code: DiagnosticCode, _ message: String, at location: SourceLocation, valueAt valueOffset: Int) {
        self.init(code, message, at: location, pointer: "")
        pendingValueOffset = valueOffset
    }

    init(_ code: DiagnosticCode, _ message: String, at value: JSONValue) {
        self.init(code, message, at: value.location, valueAt: value.range.lowerBound)
    }

    init(_ code: DiagnosticCode, _ message: String, at origin: Origin) {
        self.init(code, message, at: origin.location, valueAt: origin.valueOffset)
    }

    /// Whether a listing shows it: errors and warnings always, notes when asked for, or when
    /// the code is one a reader must see (`DiagnosticCode.isAlwaysShown`).
    public func isShown(withNotes: Bool) -> Bool {
        withNotes || severity != .info || code.isAlwaysShown
    }

    /// The message with the JSON pointer of the offending value, as printed after the severity.
    /// A text file's (`security.txt`, the Apple Pay file) has no pointer: its line says where.
    public var messageWithPointer: String {
        code.isAboutText ? message : "\(message) (at \(JSONPointer.display(pointer)))"
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// In file order, then by code, so output is stable.
    public func sortedByLocation() -> [Diagnostic] {
        orderByLocation().map { self[$0] }
    }

    /// The indices in file order, then by code: sorting indices moves no diagnostic (each
    /// holds strings), and codes are compared only between diagnostics at one offset.
    func orderByLocation() -> [Int] {
        withUnsafeBufferPointer { all in
            all.indices.sorted { left, right in
                let (leftOffset, rightOffset) = (all[left].location.offset, all[right].location.offset)
                return leftOffset != rightOffset
                    ? leftOffset < rightOffset : all[left].code.rawValue < all[right].code.rawValue
            }
        }
    }

    /// Renders the pending pointers against the document they were found in.
    func resolvingPointers(in root: JSONValue?) -> [Diagnostic] {
        map { diagnostic in
            guard let offset = diagnostic.pendingValueOffset else { return diagnostic }
            var resolved = diagnostic
            resolved.pointer = root?.pointer(at: offset) ?? ""
            resolved.pendingValueOffset = nil
            return resolved
        }
    }
}
