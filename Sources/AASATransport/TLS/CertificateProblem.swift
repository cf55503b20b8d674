import AssociationKit

/// A problem of one certificate folder, found while loading: a value of this layer, turned
/// into the server's typed load problem (with its stable `CERT…` code) above it.
public struct CertificateProblem: Error, Sendable, Hashable {
    public enum Kind: Sendable, Hashable, CaseIterable {
        case expired
        case expiring
        case withoutNames
        case unusable
        case noCertificates
        case noDefaultCertificate
        case rsaKey
    }

    public var kind: Kind
    /// The file or folder the problem is about, as the operator named it.
    public var path: String
    public var severity: Severity
    public var message: String

    public init(_ path: String, _ kind: Kind, _ severity: Severity, _ message: String) {
        self.path = path
        self.kind = kind
        self.severity = severity
        self.message = message
    }
}

extension Array where Element == CertificateProblem {
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
