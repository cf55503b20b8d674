/// The settings of `serve` by concern, each group's table in its own file
/// (`SettingGroup+Serving.swift`, `+Timeouts`, `+Admin`, `+ACME`, `+Store`, `+CDNWatch`,
/// `+GoogleWatch`); `serve --help` and docs/settings.md's settings reference show each group under
/// its title. A new setting is one row in its group's table and the field it lands in; a new
/// group is one case here (docs/ARCHITECTURE.md, "Where new code goes").
public enum SettingGroup: CaseIterable, Sendable {
    case sites, listeners, admin, limits, timeouts, logging, acme, store, cdnWatch, googleWatch

    public var title: String {
        switch self {
        case .sites: "Sites and certificates"
        case .listeners: "Listeners"
        case .admin: "Admin listener"
        case .limits: "Loops and limits"
        case .timeouts: "Timeouts"
        case .logging: "Logs"
        case .acme: "Automatic certificates (ACME)"
        case .store: "Shared store (several replicas)"
        case .cdnWatch: "Apple's CDN and fetcher"
        case .googleWatch: "Google's view of assetlinks.json"
        }
    }

    public var settings: [ServerConfiguration.Setting] {
        switch self {
        case .sites: Self.siteSettings
        case .listeners: Self.listenerSettings
        case .admin: Self.adminSettings
        case .limits: Self.limitSettings
        case .timeouts: Self.timeoutSettings
        case .logging: Self.logSettings
        case .acme: Self.acmeSettings
        case .store: Self.storeSettings
        case .cdnWatch: Self.cdnWatchSettings
        case .googleWatch: Self.googleWatchSettings
        }
    }
}
