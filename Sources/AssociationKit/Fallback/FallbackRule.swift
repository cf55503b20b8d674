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

    init(index: Int, component: ComponentRule, action: Action) {
        self.index = index
        self.action = action
        sourceText = component.sourceText
        compiled = CompiledRule(
            EffectiveRule(component: component, appDefaults: nil, domainDefaults: nil), detailsIndex: 0,
            variables: [:])
    }

    func matches(_ url: MatchURL) -> Bool {
        compiled.pathFilter.admits(url.pathSummary(compiled.pathFilter.form)) && compiled.matches(url)
    }
}
