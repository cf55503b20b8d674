/// A site's fallback compiled at load: the file with the matchers of the site's association
/// files, so deciding a request is a walk over precompiled rules (docs/fallback.md, "The link domain").
public final class FallbackPlan: Sendable {
    public let file: FallbackFile
    /// The site's Apple matcher, kept only when a page can be shown: the App Store page, or the
    /// Google Play page where Android's own decision is unknown and follows Apple's.
    let apple: AssociationMatcher?
    /// The site's Android matcher, kept only when a Google Play page can be shown.
    let android: AssetLinksMatcher?

    public init(file: FallbackFile, apple: AssociationFile?, android: AssetLinks?) {
        self.file = file
        let pages = file.appStoreID != nil || (file.playPackage != nil && android != nil)
        self.apple = pages ? apple.map(AssociationMatcher.init(file:)) : nil
        self.android = file.playPackage == nil ? nil : android.map(AssetLinksMatcher.init(file:))
    }

    /// The decision for a path (as requested, starting with `/` or empty) and a query
    /// (without its `?`, nil when the target has none). The URL is parsed for matching only
    /// when a rule or a matcher needs it.
    public func decide(
        path: UnsafeBufferPointer<UInt8>, query: UnsafeBufferPointer<UInt8>?, client: FallbackClient
    ) -> FallbackDecision {
        let needsApple = (client == .iOS || client == .iOSInApp) && apple != nil && file.appStoreID != nil
        let needsAndroid = (client == .android || client == .androidInApp) && android != nil
        // Most requests of a desktop browser match no rule: their URL is then never parsed.
        let mayMatch = file.rules.contains { $0.mayMatch(path: path) }
        let url = !mayMatch && !needsApple && !needsAndroid ? nil : MatchURL(requestPath: path, query: query)
        return decide(url, client: client)
    }

    /// The decision for a URL given as text (`match`, the status page): its path and query.
    public func decide(_ url: MatchURL, client: FallbackClient) -> FallbackDecision {
        decide(Optional(url), client: client)
    }

    private func decide(_ url: MatchURL?, client: FallbackClient) -> FallbackDecision {
        var decision = FallbackDecision(kind: .redirect, destination: file.web, ruleIndex: nil, isAppStorePage: false)
        if let url, let rule = file.rules.first(where: { $0.matches(url) }) {
            decision.ruleIndex = rule.index
            switch rule.action {
            case .exclude:
                decision.kind = .notFound
                return decision
            case .web(let template):
                decision.destination = template
            }
        }
        switch client {
        case .crawler where file.preview != nil:
            decision.kind = .preview
        case .iOS, .iOSInApp:
            // Any app of the file: the banner names the one App Store ID of fallback.json.
            if let apple, let url, file.appStoreID != nil {
                decision.evidence = .apple
                if apple.decideAll(url).contains(where: { $0.outcome == .match }) {
                    decision.kind = .page
                    decision.isAppStorePage = true
                }
            }
        case .android, .androidInApp:
            if let android, let url, let package = file.playPackage {
                let outcome = android.outcome(url, package: package)
                if outcome != .unknown {
                    decision.evidence = .android
                    if outcome == .match { decision.kind = .page }
                } else if let apple {
                    // Without dynamic rules the manifest decides, unseen: the Apple file's decision
                    // for the same URL is the evidence the site gives.
                    decision.evidence = .apple
                    if apple.decideAll(url).contains(where: { $0.outcome == .match }) { decision.kind = .page }
                } else {
                    // Nothing to go by: the page offers the app, as when the file granted the whole site.
                    decision.evidence = .manifest
                    decision.kind = .page
                }
            }
        default:
            break
        }
        decision.isInApp = decision.kind == .page && (client == .iOSInApp || client == .androidInApp)
        return decision
    }
}
