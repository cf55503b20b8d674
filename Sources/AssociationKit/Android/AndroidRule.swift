/// One dynamic rule as the platform holds it: a `UriRelativeFilterGroup`
/// (core/java/android/content/UriRelativeFilterGroup.java, `matchData` at line 152 of 01a7983),
/// allow or block, of one `UriRelativeFilter` per part the rule names
/// (core/java/android/content/UriRelativeFilter.java, `matchData` and `matchQuery` at lines 136
/// and 150 of 1d47c3a):
/// `/` on the path, `#` on the fragment, and one query filter per `?` item on the text
/// `name=pattern`, each a PatternMatcher from `DalExpressionParser`.
/// A class so that walking a statement's rules per URL moves one reference.
final class AndroidRule: Sendable {
    let path: AndroidPattern?
    let fragment: AndroidPattern?
    let query: [AndroidPattern]
    let exclude: Bool
    /// The decision this rule gives when it matches, built once.
    let decision: MatchDecision

    init(_ rule: DynamicAppLinkRule, statementIndex: Int, parser: DalExpressionParser.Version) {
        path = rule.path.map { DalExpressionParser.parse($0, parser) }
        fragment = rule.fragment.map { DalExpressionParser.parse($0, parser) }
        query = rule.query.map { DalExpressionParser.parse($0.name + "=" + $0.pattern.value, parser) }
        exclude = rule.exclude
        let place = "statements[\(statementIndex)].dynamic_app_link_components[\(rule.index)]"
        decision = MatchDecision(
            appID: "", outcome: rule.exclude ? .exclude : .match, detailsIndex: statementIndex, ruleIndex: rule.index,
            ruleKind: .androidRule, rule: rule.sourceText,
            reason: rule.exclude
                ? "\(place) matches and excludes the URL (exclude: true); it stays on the web"
                : "\(place) is the first rule that matches")
    }

    /// A group with no filter never matches (`UriRelativeFilterGroup.matchData`).
    var hasFilter: Bool { path != nil || fragment != nil || !query.isEmpty }

    /// Every filter of the group matches: the path and the fragment whole, and each query
    /// filter some one parameter (`UriRelativeFilter.matchData` and `matchQuery`).
    func matches(_ url: MatchURL) -> Bool {
        guard hasFilter else { return false }
        if let path, !path.matches(url.androidPath) { return false }
        if let fragment, !fragment.matches(url.androidFragment) { return false }
        for filter in query where !url.androidParameters.contains(where: { filter.matches($0) }) { return false }
        return true
    }
}
