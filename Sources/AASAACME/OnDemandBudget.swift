/// The on-demand names accepted in the last seven days, with when, so that each registered
/// domain gets at most `ACMESettings.onDemandWeekly` new names in any seven days (a sliding
/// window: Let's Encrypt's limit is 50 certificates per registered domain per week). Kept in
/// `acme/on-demand-names` (one `SECONDS NAME` line each), so a restart does not reset it.
/// The certificates ordered for aliases are kept there too, one `SECONDS =DOMAIN` line each.
import AssociationKit

/// Names are counted by their registered domain under the Public Suffix List (`RegisteredDomain`).
struct OnDemandBudget: Equatable {
    static let window = 7 * 86_400
    /// Entries kept at most, all domains together: a file read at start-up stays small
    /// whatever it holds.
    static let longest = 100_000

    struct Entry: Equatable {
        var name: String
        var domain: String
        var at: Int

        init(name: String, at: Int, suffixes: PublicSuffixList) {
            self.name = name
            // `=DOMAIN`: a certificate for aliases charged to that registered domain.
            domain = name.hasPrefix("=") ? String(name.dropFirst()) : RegisteredDomain.of(name, in: suffixes)
            self.at = at
        }

        var isCertificate: Bool { name.hasPrefix("=") }
    }

    private(set) var entries: [Entry] = []

    init() {}

    /// Whether `name` may be ordered now: free when it was accepted within the window (a
    /// retry is no new name), else counted if its registered domain has room under `limit`.
    mutating func admit(_ name: String, limit: Int, now: Int, suffixes: PublicSuffixList) -> Bool {
        prune(now: now)
        if entries.contains(where: { $0.name == name }) { return true }
        let entry = Entry(name: name, at: now, suffixes: suffixes)
        let spent = entries.count { $0.domain == entry.domain && !$0.isCertificate }
        guard spent < limit, entries.count < Self.longest else { return false }
        entries.append(entry)
        return true
    }

    /// New names of `domain` within the window.
    func spent(_ domain: String, now: Int) -> Int {
        entries.count { $0.at > now - Self.window && $0.domain == domain && !$0.isCertificate }
    }

    /// Charges one certificate to each registered domain among `names` (an alias-driven order;
    /// docs/acme.md, "Aliases and the budget"), if each has had fewer than `limit` in the
    /// window, counted apart from on-demand names (kept as `=DOMAIN` lines). Nil when charged,
    /// else the first domain whose budget is spent.
    mutating func admitCertificate(_ names: [String], limit: Int, now: Int, suffixes: PublicSuffixList) -> String? {
        prune(now: now)
        let domains = Set(names.map { RegisteredDomain.of($0, in: suffixes) }).sorted()
        for domain in domains where entries.count(where: { $0.isCertificate && $0.domain == domain }) >= limit {
            return domain
        }
        guard entries.count + domains.count <= Self.longest else { return domains.first }
        for domain in domains { entries.append(Entry(name: "=" + domain, at: now, suffixes: suffixes)) }
        return nil
    }

    /// Certificates for aliases charged to `domain` within the window.
    func certificatesSpent(_ domain: String, now: Int) -> Int {
        entries.count { $0.at > now - Self.window && $0.domain == domain && $0.isCertificate }
    }

    mutating func prune(now: Int) {
        entries.removeAll { $0.at <= now - Self.window || $0.at > now + Self.window }
    }

    /// The file's text: one `SECONDS NAME` line per entry.
    var text: String {
        entries.map { "\($0.at) \($0.name)\n" }.joined()
    }

    /// Reads the file's text; a line that is not `SECONDS NAME` is skipped (a torn write
    /// costs at most what it held).
    init(text: String, now: Int, suffixes: PublicSuffixList) {
        for line in text.split(separator: "\n").prefix(Self.longest) {
            let parts = line.split(separator: " ")
            guard parts.count == 2, parts[0].utf8.count <= 12, let at = Int(parts[0]), !parts[1].isEmpty,
                parts[1].utf8.count <= 254
            else { continue }
            entries.append(Entry(name: String(parts[1]), at: at, suffixes: suffixes))
        }
        prune(now: now)
    }
}
