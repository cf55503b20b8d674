/// Decides a URL for an Android package by App Links rules (docs/association-files.md §3): a
/// statement granting `handle_all_urls` to the package leaves the paths to the app's manifest
/// (`unknown`: the server cannot see it), unless it carries Android 15 dynamic rules, which are
/// tried in order (first match wins, `exclude` keeps the URL on the web, no match means not
/// opened). It reuses the Apple matcher's pattern engine, where the semantics agree (`*`, `?`,
/// `?*`, whole-part anchoring, query items by name in any order, unlisted items ignored) and
/// differs where Android does: no slash normalization of the path, no substitution variables,
/// no case or encoding options.
public struct AssetLinksMatcher: Sendable {
    struct Entry: Sendable {
        var statementIndex: Int
        var packageName: String
        /// Nil: the statement has no dynamic rules; the app's manifest decides.
        var rules: [CompiledRule]?
    }

    public let packages: [String]
    let entries: [Entry]

    public init(file: AssetLinks) {
        var packages: [String] = []
        var entries: [Entry] = []
        for statement in file.statements {
            guard let packageName = statement.appLinksPackage else { continue }
            if !packages.contains(packageName) { packages.append(packageName) }
            let rules = statement.dynamicRules.map { rules in
                rules.map {
                    CompiledRule(EffectiveRule(androidRule: $0), detailsIndex: statement.index, variables: [:])
                }
            }
            entries.append(Entry(statementIndex: statement.index, packageName: packageName, rules: rules))
        }
        self.packages = packages
        self.entries = entries
    }

    public func decide(_ url: MatchURL, package: String, domain: String? = nil) -> MatchDecision {
        if let domain, !domain.isEmpty, url.host != (HostName.normalize(domain) ?? domain.lowercased()) {
            return noMatch(package, "the URL's host \(url.host) is not the file's domain \(domain.lowercased())")
        }
        let statements = entries.filter { $0.packageName == package }
        guard !statements.isEmpty else {
            return noMatch(package, "no statement grants \(AssetLinks.handleAllURLs) to \(package)")
        }
        for entry in statements {
            guard let rules = entry.rules else {
                return MatchDecision(
                    appID: package, outcome: .unknown, detailsIndex: entry.statementIndex, ruleIndex: nil,
                    ruleKind: nil, rule: nil, reason: Self.manifestDecides(entry.statementIndex))
            }
            if let rule = rules.first(where: { $0.matches(url) }) {
                var decision = rule.decision
                decision.appID = package
                return decision
            }
        }
        return noMatch(package, "no dynamic rule of the statements for this package matches the URL")
    }

    /// `decide(url, package:).outcome` without its reason or a filtered copy of the statements:
    /// the request path's question (a fallback page), answered without allocating.
    public func outcome(_ url: MatchURL, package: String) -> MatchDecision.Outcome {
        for entry in entries where entry.packageName == package {
            guard let rules = entry.rules else { return .unknown }
            if let rule = rules.first(where: { $0.matches(url) }) { return rule.decision.outcome }
        }
        return .noMatch
    }

    public func decideAll(_ url: MatchURL, domain: String? = nil) -> [MatchDecision] {
        packages.map { decide(url, package: $0, domain: domain) }
    }

    static func manifestDecides(_ statementIndex: Int) -> String {
        "statements[\(statementIndex)] grants \(AssetLinks.handleAllURLs) without dynamic rules: the app's manifest "
            + "decides which paths open it, which the server cannot see"
    }

    func noMatch(_ package: String, _ reason: String) -> MatchDecision {
        MatchDecision(
            appID: package, outcome: .noMatch, detailsIndex: nil, ruleIndex: nil, ruleKind: nil, rule: nil,
            reason: reason)
    }
}
