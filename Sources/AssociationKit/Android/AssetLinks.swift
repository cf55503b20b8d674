/// Android's `assetlinks.json` (Google's Digital Asset Links): a list of statements.
public struct AssetLinks: Sendable {
    public var statements: [AssetLinksStatement] = []

    public init() {}

    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"
    public static let getLoginCredentials = "delegate_permission/common.get_login_creds"
    /// Lets a web app ask whether its Android app is installed; the target is the web app's
    /// manifest URL (web.dev, "Is your app installed? getInstalledRelatedApps()").
    public static let queryWebAPK = "delegate_permission/common.query_webapk"
}

/// One statement: relations granted to a target, or an include of another statement list.
public struct AssetLinksStatement: Sendable {
    public enum Target: Sendable {
        case androidApp(packageName: String, fingerprints: [String])
        case web(site: String)
    }

    public var relations: [String] = []
    public var target: Target?
    public var include: String?
    /// Android 15 `dynamic_app_link_components` under handle_all_urls; nil when absent.
    public var dynamicRules: [DynamicAppLinkRule]?
    public var index: Int
    public var origin: Origin

    public init(index: Int, origin: Origin) {
        self.index = index
        self.origin = origin
    }

    /// The package this statement lets open the site's links: an `android_app` target with a
    /// package name, granted `handle_all_urls`; nil otherwise.
    public var appLinksPackage: String? {
        guard case .androidApp(let package, _)? = target, !package.isEmpty, relations.contains(AssetLinks.handleAllURLs)
        else { return nil }
        return package
    }
}

/// One Android 15 dynamic rule: `/`, `?` (item name → pattern), `#`, `exclude`.
public struct DynamicAppLinkRule: Sendable {
    public var index: Int
    public var path: String?
    public var query: [QueryItemRule] = []
    public var fragment: String?
    public var exclude = false
    public var sourceText: String
    public var origin: Origin
}
