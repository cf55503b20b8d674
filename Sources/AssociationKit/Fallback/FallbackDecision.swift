/// What a request without the app gets from `fallback.json`: the five decisions of the
/// README's "The link domain for people without the app", in their order.
public struct FallbackDecision: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case notFound = "not_found"
        case preview
        /// A landing page: the App Store one for iOS, the Google Play one for Android.
        case page
        case redirect
    }

    public var kind: Kind
    /// The web destination: the first matching rule's template, else `web`.
    public var destination: URLTemplate
    /// The index in `rules` of the first rule that matched, if any.
    public var ruleIndex: Int?
    /// True when the decision is the App Store page (an iOS client), false for Google Play.
    public var isAppStorePage: Bool
    /// The file that decided between a page and the web for a phone, nil when no platform
    /// file was asked (a desktop, a crawler, an excluded path).
    public var evidence: FallbackEvidence? = nil
    /// True when the page is for an in-app browser: its main link leaves the app it runs in.
    public var isInApp = false
}
