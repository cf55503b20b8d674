/// The answer for one app and one URL, with the rule that decided it and why.
public struct MatchDecision: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        /// The URL opens the app.
        case match
        /// A matching rule has `exclude: true` (or a legacy `NOT `): the URL stays on the web.
        case exclude
        /// No rule matched, the app is not in the file, or the host is another domain.
        case noMatch = "no_match"
        /// Android only: a statement grants `handle_all_urls` without dynamic rules, so the
        /// app's manifest decides, which the server cannot see (docs/association-files.md §3).
        case unknown

        /// Whether the URL may open the app: a match, or a decision left to the app's manifest.
        public var mayOpen: Bool { self == .match || self == .unknown }
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
