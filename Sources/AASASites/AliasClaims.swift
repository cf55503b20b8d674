import AssociationKit

/// Which `site.json` aliases are served: the one rule `validate` (`SiteDirectory`) and `serve`
/// (`SiteCatalog`) apply (docs/security.md, "Aliases a tenant can claim"). A site folder's
/// `site.json` is written by whoever deploys that folder, so an alias may only name a host no
/// other entry of the sites folder covers: an alias that a folder or link holds, or that a
/// wildcard covers (`*.victim.example` covers `pr-1.staging.victim.example`), stays theirs
/// (`SITE014`). A name two `site.json` files claim stays with the site it is served from now
/// while that site still lists it, and a newcomer's claim is refused (`SITE017`), so adding a
/// name to one's own `site.json` never takes another tenant's working alias down; with no
/// such incumbent (`validate`, a cold start) neither serves it. Nothing depends on the order
/// folders are listed or read in.
public enum AliasClaims {
    /// One site folder's `site.json`: the site, the file as shown, its aliases and where each is.
    public struct Claim: Sendable {
        public var site: String
        public var path: String
        public var aliases: [String]
        public var locations: [String: SourceLocation]

        public init(site: String, path: String, aliases: [String], locations: [String: SourceLocation]) {
            self.site = site
            self.path = path
            self.aliases = aliases
            self.locations = locations
        }
    }

    /// The outcome: each alias served and the site folder that serves it; what was refused.
    public struct Settled: Sendable {
        public var granted: [String: String] = [:]
        public var problems: [LoadProblem] = []
    }

    /// Settles `claims` against the entries already in the sites folder: `holder` says, for
    /// a site key (a name or `*.domain`), how the folder or link that holds it is shown
    /// ("the site folder example.com"), nil when none does. `incumbents` are the aliases the
    /// served snapshot grants (alias → site); empty where nothing is served yet.
    public static func settle(
        _ claims: [Claim], incumbents: [String: String] = [:], holder: (String) -> String?
    ) -> Settled {
        var claimants: [String: [String]] = [:]
        for claim in claims {
            for alias in claim.aliases { claimants[alias, default: []].append(claim.site) }
        }
        var settled = Settled()
        for claim in claims.sorted(by: { $0.site < $1.site }) {
            for alias in claim.aliases {
                let reason: String? =
                    if let held = holder(alias) {
                        "\(held) serves that name"
                    } else if let wildcard = coveringWildcard(alias, holder: holder) {
                        "\(wildcard.held) covers it (\(wildcard.name))"
                    } else { nil }
                if let reason {
                    settled.problems.append(
                        SiteSettings.collision(
                            alias, path: claim.path, site: claim.site, location: claim.locations[alias],
                            holder: reason))
                    continue
                }
                let others = Set(claimants[alias] ?? []).subtracting([claim.site]).sorted()
                // The incumbent still lists it (it is a claimant): it keeps it, the rest are refused.
                if let incumbent = incumbents[alias], others.contains(incumbent) {
                    settled.problems.append(
                        SiteSettings.claimedAfter(
                            alias, path: claim.path, site: claim.site, location: claim.locations[alias],
                            incumbent: incumbent))
                    continue
                }
                guard others.isEmpty || incumbents[alias] == claim.site else {
                    settled.problems.append(
                        SiteSettings.claimedTwice(
                            alias, path: claim.path, site: claim.site, location: claim.locations[alias],
                            others: others))
                    continue
                }
                settled.granted[alias] = claim.site
            }
        }
        return settled
    }

    /// The wildcard entry (`*.domain`) that a request for `name` would reach without the
    /// alias, if any: the longest, as the served map picks it (`HostName.lookup`).
    static func coveringWildcard(_ name: String, holder: (String) -> String?) -> (name: String, held: String)? {
        var rest = Substring(name)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            let wildcard = "*." + rest
            if let held = holder(wildcard) { return (wildcard, held) }
        }
        return nil
    }
}
