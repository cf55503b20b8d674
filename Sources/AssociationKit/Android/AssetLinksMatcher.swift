/// Decides a URL for an Android package as the platform does (docs/association-files.md,
/// "Android's matching"): the first statement granting `handle_all_urls` to the package decides.
/// Without dynamic rules (or with an empty list) the app's manifest decides (`unknown`: the
/// server cannot see it); otherwise its rules are tried in order as `UriRelativeFilterGroup`s,
/// the first that matches decides (`exclude` keeps the URL on the web), and none matching means
/// not opened. The rules are read with the newest StatementService parser; the decision Android
/// 15's parser would give is kept beside it, and `decide` says when the two differ.
/// One engine for `match`, `probe`, the status page, XPL001/XPL002, the link pages and
/// `/sites.json`; Apple's matcher is another.
public struct AssetLinksMatcher: Sendable {
    struct Entry: Sendable {
        var statementIndex: Int
        var packageName: String
        /// Nil: the statement has no dynamic rules (or an empty list); the app's manifest decides.
        var rules: [AndroidRule]?
        /// The same rules as Android 15's parser reads them.
        var android15Rules: [AndroidRule]?
    }

    public let packages: [String]
    /// One per package: its first statement granting `handle_all_urls`.
    let entries: [Entry]

    public init(file: AssetLinks) {
        var entries: [Entry] = []
        for statement in file.statements {
            guard let packageName = statement.appLinksPackage,
                !entries.contains(where: { $0.packageName == packageName })
            else { continue }
            func compiled(_ parser: DalExpressionParser.Version) -> [AndroidRule]? {
                guard let rules = statement.dynamicRules, !rules.isEmpty else { return nil }
                return rules.map { AndroidRule($0, statementIndex: statement.index, parser: parser) }
            }
            entries.append(
                Entry(
                    statementIndex: statement.index, packageName: packageName, rules: compiled(.newest),
                    android15Rules: compiled(.android15)))
        }
        self.packages = entries.map(\.packageName)
        self.entries = entries
    }

    public func decide(_ url: MatchURL, package: String, domain: String? = nil) -> MatchDecision {
        if let domain, !domain.isEmpty, url.host != (HostName.normalize(domain) ?? domain.lowercased()) {
            return noMatch(package, "the URL's host \(url.host) is not the file's domain \(domain.lowercased())")
        }
        guard let entry = entries.first(where: { $0.packageName == package }) else {
            return noMatch(package, "no statement grants \(AssetLinks.handleAllURLs) to \(package)")
        }
        guard let rules = entry.rules else {
            return MatchDecision(
                appID: package, outcome: .unknown, detailsIndex: entry.statementIndex, ruleIndex: nil,
                ruleKind: nil, rule: nil, reason: Self.manifestDecides(entry.statementIndex))
        }
        var decision =
            rules.first(where: { $0.matches(url) })?.decision
            ?? noMatch(
                package,
                "no dynamic rule of statements[\(entry.statementIndex)], the first granting "
                    + "\(AssetLinks.handleAllURLs) to \(package), matches the URL")
        decision.appID = package
        decision.reason += " " + Self.readerNote
        let android15 = entry.android15Rules?.first(where: { $0.matches(url) })
        let android15Outcome = android15?.decision.outcome ?? .noMatch
        if android15Outcome != decision.outcome {
            decision.reason +=
                "; Android 15's parser decides \(android15Outcome.rawValue) here"
                + (android15.map { " (dynamic_app_link_components[\($0.decision.ruleIndex ?? 0)])" } ?? "")
        }
        return decision
    }

    /// `decide(url, package:).outcome` without its reason: the request path's question (a
    /// fallback page), answered without formatting anything.
    public func outcome(_ url: MatchURL, package: String) -> MatchDecision.Outcome {
        guard let entry = entries.first(where: { $0.packageName == package }) else { return .noMatch }
        guard let rules = entry.rules else { return .unknown }
        return rules.first(where: { $0.matches(url) })?.decision.outcome ?? .noMatch
    }

    public func decideAll(_ url: MatchURL, domain: String? = nil) -> [MatchDecision] {
        packages.map { decide(url, package: $0, domain: domain) }
    }

    /// Who reads the rules: said in every decision that rests on them.
    static let readerNote =
        "(as AOSP's StatementService and PatternMatcher read the rules; on phones with Google Play services, "
        + "Play services reads the file with a parser that is not public)"

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
