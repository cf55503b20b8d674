/// One `service:domain[?mode=…]` entry of `com.apple.developer.associated-domains`.
struct AssociatedDomain {
    static let services = ["applinks", "webcredentials", "appclips", "activitycontinuation"]

    var entry: String
    var service: String
    /// Lower-cased; `*.example.com` for a wildcard entry.
    var domain: String
    var mode: String?

    init?(_ entry: String) {
        guard let colon = entry.firstIndex(of: ":") else { return nil }
        self.entry = entry
        service = String(entry[..<colon])
        var rest = entry[entry.index(after: colon)...]
        if let question = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: question)...]
            mode = query.hasPrefix("mode=") ? String(query.dropFirst(5)) : String(query)
            rest = rest[..<question]
        }
        domain = rest.lowercased()
        guard !domain.isEmpty else { return nil }
    }

    var isWildcard: Bool { domain.hasPrefix("*.") }
}
