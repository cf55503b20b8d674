/// Which file decided whether a phone's browser gets a landing page (an app may open the URL)
/// or the web (docs/fallback.md, "Android follows the evidence").
public enum FallbackEvidence: String, Sendable {
    /// The site's apple-app-site-association: for iOS, and for Android where Android's own
    /// decision is unknown.
    case apple = "apple-app-site-association"
    /// The site's assetlinks.json with dynamic rules (Android 15+): Android's own decision.
    case android = "assetlinks.json"
    /// assetlinks.json without dynamic rules and no Apple file to follow: the app's manifest
    /// decides, which the server cannot see, so the page offers the app.
    case manifest = "unknown (the app's manifest decides)"
}
