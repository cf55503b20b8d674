/// What one kind of client without the app gets for a URL: for `match`, the status page's
/// URL tester and `/sites.json`, rendered at those edges.
public struct FallbackExplanation: Sendable {
    public var client: FallbackClient
    public var kind: FallbackDecision.Kind
    /// 302, 200 or 404.
    public var status: Int
    /// The web destination (a redirect's Location, a page's web link).
    public var destination: String
    /// The deciding rule as written, and its index in `rules`.
    public var rule: String?
    public var ruleIndex: Int?
    /// The file that decided between a page and the web, for a phone.
    public var evidence: FallbackEvidence?

    /// The page's name: `App Store page`, `Google Play page`, with the way out of an in-app browser.
    public var pageName: String {
        switch client {
        case .iOS: "App Store page with the Smart App Banner"
        case .iOSInApp: "App Store page with a link out to Safari (x-safari-https)"
        case .androidInApp: "Google Play page with an intent:// link out of the in-app browser"
        default: "Google Play page"
        }
    }

    /// One line: `302 to https://…`, `200 App Store page (web: https://…)`, `404`.
    public var summary: String {
        var text: String
        switch kind {
        case .notFound: text = "404 (excluded)"
        case .redirect: text = "302 to \(destination)"
        case .preview: text = "200 link preview (og:url is the link; web: \(destination))"
        case .page: text = "200 \(pageName) (web: \(destination))"
        }
        if let ruleIndex, let rule { text += "; rules[\(ruleIndex)]: \(rule)" }
        if let evidence { text += "; decided by \(evidence.rawValue)" }
        return text
    }
}

extension FallbackPlan {
    /// The answer for `url` for every kind of client, in `FallbackClient.allCases` order.
    public func explain(_ url: String) throws(MatchURL.InvalidURL) -> [FallbackExplanation] {
        let parsed = try MatchURL(url)
        // The path and query as the request would carry them: after the authority, before `#`.
        var bytes = Array(url.utf8)
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes.removeSubrange(hash...) }
        let start = bytes.firstIndex(of: UInt8(ascii: ":")).map { $0 + 3 } ?? 0
        let pathStart = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.count
        let question = bytes[pathStart...].firstIndex(of: UInt8(ascii: "?"))
        let path = Array(bytes[pathStart..<(question ?? bytes.count)])
        let query = question.map { Array(bytes[($0 + 1)...]) }
        return FallbackClient.allCases.map { client in
            let decision = decide(parsed, client: client)
            let rule = decision.ruleIndex.flatMap { index in file.rules.first { $0.index == index } }
            return FallbackExplanation(
                client: client, kind: decision.kind,
                status: decision.kind == .redirect ? 302 : decision.kind == .notFound ? 404 : 200,
                destination: decision.destination.expand(path: path, query: query), rule: rule?.sourceText,
                ruleIndex: decision.ruleIndex, evidence: decision.evidence)
        }
    }
}
