/// Answers "which app opens this URL?" by Apple's rules (the README's matching rules). Built once from a
/// file; every decision is then a walk over precompiled rules with no parsing.
public struct AssociationMatcher: Sendable {
    struct Entry: Sendable {
        var detailsIndex: Int
        var appIDs: [String]
        var rules: [CompiledRule]
        /// `rules[i].pathFilter`, stored flat so most rules are ruled out without touching them.
        var filters: [PathFilter]
    }

    /// Every app of `applinks.details`, in file order, each once.
    public let appIDs: [String]
    let entries: [Entry]
    /// For each app, the entries that list it, in order.
    let entriesOfApp: [String: [Int]]

    public init(file: AssociationFile) {
        guard let appLinks = file.appLinks else {
            appIDs = []
            entries = []
            entriesOfApp = [:]
            return
        }
        let variables = appLinks.variablesByName
        var appIDs: [String] = []
        var entriesOfApp: [String: [Int]] = [:]
        var entries: [Entry] = []
        for detail in appLinks.details {
            let rules = detail.effectiveRules(domainDefaults: appLinks.defaults).map {
                CompiledRule($0, detailsIndex: detail.index, variables: variables)
            }
            var ids: [String] = []
            for id in detail.appIDs.map(\.value) where !ids.contains(id) { ids.append(id) }
            for id in ids {
                if entriesOfApp[id] == nil { appIDs.append(id) }
                entriesOfApp[id, default: []].append(entries.count)
            }
            entries.append(
                Entry(detailsIndex: detail.index, appIDs: ids, rules: rules, filters: rules.map(\.pathFilter)))
        }
        self.appIDs = appIDs
        self.entries = entries
        self.entriesOfApp = entriesOfApp
    }

    /// The decision for one app. Entries listing the app are tried in file order, and within
    /// an entry its rules in order; the first rule that matches decides (docs/association-files.md §2).
    public func decide(_ url: MatchURL, appID: String, domain: String? = nil) -> MatchDecision {
        if let mismatch = hostMismatch(url, domain: domain) { return noMatch(appID, mismatch) }
        guard let indices = entriesOfApp[appID] else {
            return noMatch(appID, "\(appID) is not in applinks.details of this file")
        }
        for index in indices {
            if let decision = evaluate(entries[index], url, appID: appID) { return decision }
        }
        return noMatch(appID, Self.noRuleMatches)
    }

    static let noRuleMatches = "no rule of the entries listing this app matches the URL"

    /// Every app in the file, in one pass: each entry's rules are evaluated once, whatever
    /// the number of apps it lists.
    public func decideAll(_ url: MatchURL, domain: String? = nil) -> [MatchDecision] {
        if let mismatch = hostMismatch(url, domain: domain) { return appIDs.map { noMatch($0, mismatch) } }
        var decided: [String: MatchDecision] = [:]
        for entry in entries where entry.appIDs.contains(where: { decided[$0] == nil }) {
            guard let decision = evaluate(entry, url, appID: "") else { continue }
            for id in entry.appIDs where decided[id] == nil {
                var forApp = decision
                forApp.appID = id
                decided[id] = forApp
            }
        }
        return appIDs.map { decided[$0] ?? noMatch($0, Self.noRuleMatches) }
    }

    /// The apps the URL opens.
    public func appsOpening(_ url: MatchURL, domain: String? = nil) -> [String] {
        decideAll(url, domain: domain).filter { $0.outcome == .match }.map(\.appID)
    }

    func evaluate(_ entry: Entry, _ url: MatchURL, appID: String) -> MatchDecision? {
        for index in entry.filters.indices where entry.filters[index].admits(url.pathSummary(entry.filters[index].form))
        {
            let rule = entry.rules[index]
            guard rule.matches(url) else { continue }
            var decision = rule.decision
            decision.appID = appID
            return decision
        }
        return nil
    }

    /// A file applies to the host it was fetched from; hosts compare case-insensitively
    /// (observed with Apple's swcutil). No domain means no host check.
    func hostMismatch(_ url: MatchURL, domain: String?) -> String? {
        guard let domain, !domain.isEmpty else { return nil }
        let expected = HostName.normalize(domain) ?? domain.lowercased()
        return url.host == expected ? nil : "the URL's host \(url.host) is not the file's domain \(expected)"
    }

    func noMatch(_ appID: String, _ reason: String) -> MatchDecision {
        MatchDecision(
            appID: appID, outcome: .noMatch, detailsIndex: nil, ruleIndex: nil, ruleKind: nil, rule: nil, reason: reason
        )
    }
}
