/// The findings of one file past `OmittedDiagnostics.limit`, counted by severity rather than
/// kept: a file with thousands of findings repeats one mistake, and keeping (and rendering a
/// JSON pointer for) each would make validating it cost far more than reading it.
public struct OmittedDiagnostics: Sendable, Hashable {
    /// How many diagnostics of one file are kept, in file order.
    public static let limit = 200

    public var errors = 0
    public var warnings = 0
    public var infos = 0

    public init() {}

    public var count: Int { errors + warnings + infos }

    package mutating func count(_ severity: Severity) {
        switch severity {
        case .error: errors += 1
        case .warning: warnings += 1
        case .info: infos += 1
        }
    }
}

extension Array where Element == Diagnostic {
    /// The first `OmittedDiagnostics.limit` in file order, with their JSON pointers rendered
    /// against `root` (only for these), and the count of the rest.
    func limited(resolvingPointersIn root: JSONValue?) -> (kept: [Diagnostic], omitted: OmittedDiagnostics) {
        let order = orderByLocation()
        var omitted = OmittedDiagnostics()
        for index in order.dropFirst(OmittedDiagnostics.limit) { omitted.count(self[index].severity) }
        let kept = order.prefix(OmittedDiagnostics.limit).map { self[$0] }.resolvingPointers(in: root)
        return (kept, omitted)
    }
}
