/// A site's two files compared URL by URL (docs/association-files.md, "4. Both platforms"),
/// reported on its `assetlinks.json`:
/// - `XPL001`: a URL one platform opens in an app while the other keeps it on the web, where
///   both decisions are known. The URLs tried are built from both files' own rules, one per
///   rule (`PatternSample`). Android has no substitution variables, so where Android agrees
///   with Apple's rules once their `$(…)` are read as wildcards, the files agree.
/// - `XPL002`: Apple's file keeps URLs on the web, and a statement granting `handle_all_urls`
///   has no dynamic rules, which leaves them to the app's manifest; the message gives the
///   `dynamic_app_link_components` that make Android 15+ follow Apple's rules.
public enum PlatformComparison {
    /// Compares the files of a site served as `host`. Nothing when either file names no app.
    public static func compare(apple: AssociationFile, android: AssetLinks, host: String) -> [Diagnostic] {
        guard let appLinks = apple.appLinks else { return [] }
        let appleMatcher = AssociationMatcher(file: apple)
        let androidMatcher = AssetLinksMatcher(file: android)
        guard !appleMatcher.appIDs.isEmpty, !androidMatcher.packages.isEmpty else { return [] }
        let site = Site(appLinks: appLinks, android: android, host: host)
        return suggestions(site) + disagreements(site, apple: appleMatcher, android: androidMatcher)
    }

    /// What both checks read of the site.
    struct Site {
        var host: String
        var variables: [String: [String]]
        /// Apple's rules as evaluated, by details entry, in file order.
        var appleRules: [(detailsIndex: Int, rules: [EffectiveRule])]
        /// The statements granting `handle_all_urls` to an app.
        var statements: [AssetLinksStatement]
        var relaxed: AssociationMatcher

        init(appLinks: AppLinks, android: AssetLinks, host: String) {
            self.host = host
            variables = appLinks.variablesByName
            appleRules = appLinks.details.map { ($0.index, $0.effectiveRules(domainDefaults: appLinks.defaults)) }
            statements = android.statements.filter { $0.appLinksPackage != nil }
            var file = AssociationFile()
            file.appLinks = appLinks
            relaxed = AssociationMatcher(file: PatternSample.relaxedFile(file))
        }

        func appleRule(_ decision: MatchDecision) -> EffectiveRule? {
            guard let detailsIndex = decision.detailsIndex, let ruleIndex = decision.ruleIndex else { return nil }
            return appleRules.first { $0.detailsIndex == detailsIndex }?.rules.first { $0.index == ruleIndex }
        }

        func statement(_ index: Int?) -> AssetLinksStatement? {
            statements.first { $0.index == index }
        }
    }

    /// How many rules of each file give a URL: each URL is decided against every rule, so a
    /// file of thousands of rules would cost seconds; the first ones are tried.
    static let rulesSampled = 1_000

    /// The URLs built from both files' rules, each once, in file order (Apple's first).
    static func samples(_ site: Site) -> [MatchURL] {
        var seen: Set<String> = []
        var urls: [MatchURL] = []
        let apple = site.appleRules.flatMap(\.rules).prefix(rulesSampled)
        let android = site.statements.flatMap { $0.dynamicRules ?? [] }.prefix(rulesSampled)
        for rule in Array(apple) + android.map(EffectiveRule.init(androidRule:)) {
            guard let url = PatternSample.url(host: site.host, rule: rule, variables: site.variables),
                seen.insert(url.string).inserted
            else { continue }
            urls.append(url)
        }
        return urls
    }

    static func disagreements(_ site: Site, apple: AssociationMatcher, android: AssetLinksMatcher) -> [Diagnostic] {
        guard site.statements.contains(where: { !($0.dynamicRules?.isEmpty ?? true) }) else { return [] }
        var reported: Set<[Int]> = []
        var diagnostics: [Diagnostic] = []
        for url in samples(site) {
            let androidDecisions = android.decideAll(url)
            let androidOpens = androidDecisions.contains { $0.outcome == .match }
            // Android's answer is known when a package opens it or none is left to its manifest.
            guard androidOpens || !androidDecisions.contains(where: { $0.outcome == .unknown }) else { continue }
            let appleDecisions = apple.decideAll(url)
            let appleOpens = appleDecisions.contains { $0.outcome == .match }
            guard androidOpens != appleOpens,
                androidOpens != site.relaxed.decideAll(url).contains(where: { $0.outcome == .match })
            else { continue }
            let appleDecision = deciding(appleDecisions, opens: appleOpens)
            let androidDecision = deciding(androidDecisions, opens: androidOpens)
            // One finding per pair of deciding rules (-1: none decided).
            let key =
                [appleDecision.detailsIndex, appleDecision.ruleIndex, androidDecision.detailsIndex]
                .map { $0 ?? -1 } + [androidDecision.ruleIndex ?? -1, androidOpens ? 1 : 0]
            guard reported.insert(key).inserted else { continue }
            diagnostics.append(disagreement(site, url, apple: appleDecision, android: androidDecision))
        }
        return diagnostics
    }

    /// The decision that explains the platform's answer: an app that opens the URL, else an
    /// exclusion, else the first.
    static func deciding(_ decisions: [MatchDecision], opens: Bool) -> MatchDecision {
        decisions.first { $0.outcome == (opens ? .match : .exclude) } ?? decisions[0]
    }

    static func disagreement(_ site: Site, _ url: MatchURL, apple: MatchDecision, android: MatchDecision)
        -> Diagnostic
    {
        let opens =
            android.outcome == .match
            ? "opens \(android.appID) on Android but stays on the web on iOS"
            : "opens \(apple.appID) on iOS but stays on the web on Android"
        var appleText = "iOS: " + apple.reason
        if let rule = site.appleRule(apple) {
            appleText =
                "iOS, apple-app-site-association line \(rule.origin.location.line): \(apple.reason), rule "
                + rule.sourceText.compacted
        }
        let androidText = "Android: " + android.reason + (android.rule.map { ", rule " + $0.compacted } ?? "")
        let message = "\(url.string) \(opens). \(androidText). \(appleText)"
        // At Android's deciding rule, else at the statement whose rules matched nothing.
        let statement =
            site.statement(android.detailsIndex)
            ?? site.statements.first { !($0.dynamicRules?.isEmpty ?? true) && $0.appLinksPackage == android.appID }
        guard let statement else { return Diagnostic(.platformsDisagree, message, at: .start, pointer: "") }
        let statementPointer = JSONPointer.appending(statement.index, to: "")
        if let ruleIndex = android.ruleIndex, let rule = statement.dynamicRules?.first(where: { $0.index == ruleIndex })
        {
            return Diagnostic(
                .platformsDisagree, message, at: rule.origin.location,
                pointer: rulesPointer(statementPointer, ruleIndex))
        }
        return Diagnostic(.platformsDisagree, message, at: statement.origin.location, pointer: statementPointer)
    }

    /// `/S/relation_extensions/delegate_permission~1common.handle_all_urls/dynamic_app_link_components/R`.
    static func rulesPointer(_ statement: String, _ rule: Int) -> String {
        let list = JSONPointer.appending(
            "dynamic_app_link_components",
            to: JSONPointer.appending(
                AssetLinks.handleAllURLs, to: JSONPointer.appending("relation_extensions", to: statement)))
        return JSONPointer.appending(rule, to: list)
    }
}
