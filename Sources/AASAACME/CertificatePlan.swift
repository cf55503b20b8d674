/// The names one certificate should cover: a site folder and its aliases (the folder's
/// name first, and the folder under `acme/` is named after it), or one on-demand name.
public struct CertificatePlan: Sendable, Hashable {
    public var names: [String]
    public var onDemand: Bool

    public init(names: [String], onDemand: Bool) {
        self.names = names
        self.onDemand = onDemand
    }

    public var primary: String { names[0] }

    /// Whether ACME can order the name at all: a DNS name with a dot, not an IP address,
    /// not a wildcard and not a reserved local name (RFC 6761).
    public static func isOrderable(_ name: String) -> Bool {
        guard name.contains("."), !name.hasPrefix("*."), !name.hasSuffix(".localhost"), !name.hasSuffix(".local"),
            !name.hasSuffix(".invalid"),
            name.contains(where: { $0.isLetter })
        else { return false }
        return true
    }
}
