/// How bad a finding is.
/// - error: Apple (or Android) ignores or rejects what the file says; the file must not ship.
/// - warning: it works, but probably not the way the author meant.
/// - info: worth knowing (for example which older OS releases cannot read the file).
public enum Severity: String, Sendable, Comparable, CaseIterable {
    case info, warning, error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }
}
