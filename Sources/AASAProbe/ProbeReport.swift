/// A checklist (one domain for `probe`, one app for `check-app`): each item pass, note,
/// warn or fail, with the reason.
public struct ProbeReport: Sendable {
    public enum Outcome: String, Sendable { case pass, note, warn, fail }

    public struct Item: Sendable {
        public var name: String
        public var outcome: Outcome
        public var detail: String
    }

    public var domain: String
    public var items: [Item] = []

    public var failed: Bool { items.contains { $0.outcome == .fail } }

    public init(domain: String) {
        self.domain = domain
    }

    public mutating func add(_ name: String, _ outcome: Outcome, _ detail: String) {
        items.append(Item(name: name, outcome: outcome, detail: detail))
    }
}
