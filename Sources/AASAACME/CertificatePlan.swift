/// The names one certificate should cover: a site folder and its aliases (the folder's
/// name first, and the folder under `acme/` is named after it), or one on-demand name.
public struct CertificatePlan: Sendable, Hashable {
    public var names: [String]
    public var onDemand: Bool
    /// Whether it covers aliases (links or `site.json` names), whose orders are budgeted
    /// (docs/acme.md, "Aliases and the budget").
    public var aliases: Bool

    /// Names one certificate may cover at most: Let's Encrypt's "Names per Certificate" limit
    /// (100; Let's Encrypt, "Rate Limits"), which most public CAs share or exceed.
    public static let mostNames = 100

    public init(names: [String], onDemand: Bool, aliases: Bool = false) {
        self.names = names
        self.onDemand = onDemand
        self.aliases = aliases
    }

    /// The plans for a site folder `site` and its `aliases` (sorted, orderable): the folder and
    /// the first 99 aliases in one, each further 100 aliases in one of their own, named after
    /// its first (each certificate within `mostNames`).
    public static func plans(site: String, aliases: [String]) -> [CertificatePlan] {
        let first = Array(aliases.prefix(mostNames - 1))
        var plans = [CertificatePlan(names: [site] + first, onDemand: false, aliases: !first.isEmpty)]
        var rest = aliases.dropFirst(first.count)
        while !rest.isEmpty {
            plans.append(CertificatePlan(names: Array(rest.prefix(mostNames)), onDemand: false, aliases: true))
            rest = rest.dropFirst(mostNames)
        }
        return plans
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
