/// One entry of `fallback.json`'s `rules`: Apple's component keys compiled by the matcher's
/// own engine (`CompiledRule`), and what a match means.
public struct FallbackRule: Sendable {
    public enum Action: Sendable {
        case web(URLTemplate)
        case exclude
    }

    public let index: Int
    public let action: Action
    /// The rule as written, for `match` and the status page.
    public let sourceText: String
    let compiled: CompiledRule
    /// What the request path must start with for the rule to match, read from the pattern's
    /// literal start; nil when the rule compares another form of the path. It lets a request
    /// that no rule can match skip parsing its URL (the redirect's cost, docs/development.md, "Benchmarks").
    let pathPrefix: [UInt8]?

    init(index: Int, component: ComponentRule, action: Action) {
        self.index = index
        self.action = action
        sourceText = component.sourceText
        let rule = EffectiveRule(component: component, appDefaults: nil, domainDefaults: nil)
        compiled = CompiledRule(rule, detailsIndex: 0, variables: [:])
        pathPrefix = Self.prefix(of: rule)
    }

    /// The literal start of a case-sensitive, percent-encoded path pattern, without trailing
    /// slashes: the matcher compares the path as sent, with its trailing slashes made one
    /// (`PathNormalization`), and leaves every byte of this prefix as it is (no `%`, no byte it
    /// would encode), so a path that does not start with it cannot match.
    static func prefix(of rule: EffectiveRule) -> [UInt8]? {
        guard rule.caseSensitive, rule.percentEncoded else { return nil }
        var prefix: [UInt8] = []
        for byte in (rule.normalizedPath ?? "").utf8 {
            if byte <= 0x20 || byte >= 0x7F || "*?$%\\\"<>".utf8.contains(byte) { break }
            prefix.append(byte)
        }
        while prefix.last == UInt8(ascii: "/") { prefix.removeLast() }
        return prefix
    }

    /// False when the rule cannot match a request with this path (as sent, before `?`).
    @inline(__always)
    func mayMatch(path: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let pathPrefix else { return true }
        guard path.count >= pathPrefix.count else { return false }
        return pathPrefix.withUnsafeBufferPointer { prefix in
            var index = 0
            while index < prefix.count {
                if path[index] != prefix[index] { return false }
                index += 1
            }
            return true
        }
    }

    func matches(_ url: MatchURL) -> Bool {
        compiled.pathFilter.admits(url.pathSummary(compiled.pathFilter.form)) && compiled.matches(url)
    }
}
