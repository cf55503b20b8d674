/// The answer for one app and one URL, with the rule that decided it and why.
public struct MatchDecision: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        /// The URL opens the app.
        case match
        /// A matching rule has `exclude: true` (or a legacy `NOT `): the URL stays on the web.
        case exclude
        /// No rule matched, the app is not in the file, or the host is another domain.
        case noMatch = "no_match"
    }

    public var appID: String
    public var outcome: Outcome
    /// The index of the deciding entry in `applinks.details`.
    public var detailsIndex: Int?
    /// The index of the deciding rule in that entry's `components` (or legacy `paths`).
    public var ruleIndex: Int?
    public var ruleKind: EffectiveRule.Kind?
    /// The deciding rule as written in the file.
    public var rule: String?
    public var reason: String

    public static func == (lhs: MatchDecision, rhs: MatchDecision) -> Bool {
        lhs.appID == rhs.appID && lhs.outcome == rhs.outcome && lhs.detailsIndex == rhs.detailsIndex
            && lhs.ruleIndex == rhs.ruleIndex && lhs.reason == rhs.reason
    }
}
