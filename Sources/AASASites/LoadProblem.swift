import AssociationKit

/// A problem found while loading sites or certificates that is not about one file's JSON
/// (those are `Diagnostic`s): an unreadable folder, an alias to nothing, an expired
/// certificate. A value until the edge renders it, as a line or as a JSON log event.
public struct LoadProblem: Sendable, Hashable {
    public var path: String
    public var severity: Severity
    public var message: String

    public init(_ path: String, _ severity: Severity, _ message: String) {
        self.path = path
        self.severity = severity
        self.message = message
    }

    /// `PATH: error|warning: MESSAGE`, the `validate` format without a position.
    public var line: String { "\(path): \(severity.rawValue): \(message)" }
}

extension Array where Element == LoadProblem {
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
