import AssociationKit

/// A URL whose decision for one app differs between the two files.
struct DecisionChange: Encodable {
    var url: String
    var app: String
    var old: String
    var new: String
    /// The rule that decides in the new file, with its place; nil when no rule does (the app is
    /// not listed, or none of its rules matches): a rule is named only where it decided.
    var rule: String?
    /// The rule that decided in the old file, when one did.
    var oldRule: String?
    /// Why no rule decides in the new file, when none does.
    var reason: String?

    static func between(_ url: String, _ old: MatchDecision, _ new: MatchDecision, android: Bool) -> [DecisionChange] {
        guard old.outcome != new.outcome else { return [] }
        let newRule = written(new, android: android)
        return [
            DecisionChange(
                url: url, app: old.appID, old: old.outcome.rawValue, new: new.outcome.rawValue, rule: newRule,
                oldRule: written(old, android: android), reason: newRule == nil ? new.reason : nil)
        ]
    }

    /// `details[0].components[1] {"/": "/a"}`: the deciding rule and its place, if a rule decided.
    static func written(_ decision: MatchDecision, android: Bool) -> String? {
        guard let text = decision.rule, let entry = decision.detailsIndex, let index = decision.ruleIndex else {
            return nil
        }
        let place =
            android
            ? "statements[\(entry)].dynamic_app_link_components[\(index)]"
            : decision.ruleKind == .legacyPath
                ? "details[\(entry)].paths[\(index)]" : "details[\(entry)].components[\(index)]"
        return "\(place) \(text.compacted)"
    }

    /// `(RULE)` when a rule of the new file decides; else `(was RULE; now REASON)`.
    var explanation: String {
        if let rule { return " (\(rule))" }
        let now = reason.map { "now \($0)" }
        let parts = [oldRule.map { "was \($0)" }, now].compactMap { $0 }
        return parts.isEmpty ? "" : " (\(parts.joined(separator: "; ")))"
    }
}

/// What `diff` prints.
enum DiffOutput {
    /// ```
    /// applinks ABCDE12345.com.example.app
    ///   + rule details[0].components[0] {"/": "/buy/free/*", "exclude": true}
    /// https://example.com/buy/free/1 ABCDE12345.com.example.app: match → exclude (details[0].components[0] …)
    /// 1 change in meaning; 1 URL decision changed
    /// ```
    static func text(_ changes: [MeaningChange], _ decisions: [DecisionChange]) -> String {
        var out = ""
        var scope: String?
        for change in changes {
            if change.scope != scope {
                out += change.scope + "\n"
                scope = change.scope
            }
            switch change.kind {
            case .added: out += "  + \(change.subject) \(change.new ?? "")\n"
            case .removed: out += "  - \(change.subject) \(change.old ?? "")\n"
            case .changed: out += "  ~ \(change.subject) \(change.old ?? "(none)") → \(change.new ?? "(none)")\n"
            case .moved: out += "  ↕ \(change.subject) \(change.old ?? "") moved to \(change.new ?? "")\n"
            }
        }
        for decision in decisions {
            out +=
                "\(decision.url) \(decision.app): \(decision.old) → \(decision.new)\(decision.explanation)\n"
        }
        if changes.isEmpty && decisions.isEmpty { return out + "same meaning\n" }
        let count = changes.count == 1 ? "1 change in meaning" : "\(changes.count) changes in meaning"
        let urls = decisions.count == 1 ? "1 URL decision changed" : "\(decisions.count) URL decisions changed"
        return out + "\(count); \(urls)\n"
    }

    /// `{"changed": …, "changes": [{"scope","kind","subject","old","new"}],
    /// "decisions": [{"url","app","old","new","rule","oldRule","reason"}]}`
    static func json(_ changes: [MeaningChange], _ decisions: [DecisionChange]) -> String {
        struct Change: Encodable {
            var scope, kind, subject: String
            var old, new: String?
        }
        struct Document: Encodable {
            var changed: Bool
            var changes: [Change]
            var decisions: [DecisionChange]
        }
        let document = Document(
            changed: !changes.isEmpty || !decisions.isEmpty,
            changes: changes.map {
                Change(scope: $0.scope, kind: $0.kind.rawValue, subject: $0.subject, old: $0.old, new: $0.new)
            },
            decisions: decisions)
        return JSONOutput.encode(document) + "\n"
    }
}
