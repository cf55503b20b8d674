import AssociationKit

/// The registered domain of a name, as a CA's per-domain limits count it (Let's Encrypt:
/// certificates per registered domain, by the Public Suffix List, private entries included):
/// `shop.example.co.uk` → `example.co.uk`, `a.github.io` → `a.github.io`. The list is the
/// system's (`AASASites/PublicSuffixListFile.swift`), handed in by the server at start-up
/// (docs/acme.md, "On-demand budget").
public enum RegisteredDomain {
    /// `name` lower-cased, without a trailing dot, cut to its registrable domain; a name that
    /// is itself a public suffix stands for itself.
    public static func of(_ name: String, in suffixes: PublicSuffixList) -> String {
        var lowered = name.lowercased()
        if lowered.hasSuffix(".") { lowered.removeLast() }
        return suffixes.registrableDomain(of: lowered) ?? lowered
    }
}
