/// The registered domain of a name, as a CA's per-domain limits count it (Let's Encrypt:
/// certificates per registered domain, by the Public Suffix List). Without the list, a rule:
/// the last two labels, or three when the last is a two-letter country code and the one
/// before is a common second level (`shop.example.co.uk` → `example.co.uk`). The rule errs
/// towards fewer, larger domains (`a.github.io` and `b.github.io` are one), so a budget kept
/// by it is spent sooner than the CA's, never later (docs/acme.md, "On-demand budget").
public enum RegisteredDomain {
    /// Second levels under country codes that registries sell names beneath.
    static let secondLevels: Set<Substring> = [
        "ac", "co", "com", "edu", "gob", "go", "gov", "ltd", "me", "mil", "ne", "net", "nic", "or", "org", "plc",
        "sch",
    ]

    /// `name` lower-cased, without a trailing dot, cut to its registered domain.
    public static func of(_ name: String) -> String {
        var lowered = name.lowercased()
        if lowered.hasSuffix(".") { lowered.removeLast() }
        let labels = lowered.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count > 2 else { return lowered }
        let last = labels[labels.count - 1]
        let second = labels[labels.count - 2]
        let keep = last.utf8.count == 2 && secondLevels.contains(second) ? 3 : 2
        return labels.suffix(keep).joined(separator: ".")
    }
}
