import AssociationKit

extension ProbeReport {
    /// `pass` when some app opens the URL, `note` when the app's manifest decides (Android
    /// without dynamic rules), `warn` when no app does; each decision on its own line with its
    /// reason and rule.
    mutating func add(_ name: String, _ decided: Prober.Decided, by source: String, url: String) {
        guard case .decisions(let decisions) = decided else {
            switch decided {
            case .missing(let reason): add(name, .warn, "no app opens \(url) by \(source): \(reason)")
            case .unknown(let reason): add(name, .note, "unknown whether an app opens \(url) by \(source): \(reason)")
            case .decisions: break
            }
            return
        }
        let opening = decisions.filter { $0.outcome == .match }.map(\.appID)
        let undecided = decisions.filter { $0.outcome == .unknown }.map(\.appID)
        let lines = decisions.map { decision in
            "\(decision.outcome.rawValue) \(decision.appID): \(decision.reason)"
                + (decision.rule.map { "\n  rule: \($0.compacted)" } ?? "")
        }
        if decisions.isEmpty {
            add(name, .warn, "no app opens \(url) by \(source): it names no app")
        } else if !opening.isEmpty {
            add(
                name, .pass,
                "\(url) opens \(opening.joined(separator: ", ")) by \(source)\n" + lines.joined(separator: "\n"))
        } else if !undecided.isEmpty {
            add(
                name, .note,
                "\(url) may open \(undecided.joined(separator: ", ")) by \(source): the app's manifest decides, "
                    + "which a probe cannot see\n" + lines.joined(separator: "\n"))
        } else {
            add(name, .warn, "no app opens \(url) by \(source)\n" + lines.joined(separator: "\n"))
        }
    }
}
