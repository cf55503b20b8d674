import AssociationKit

/// What the watch over Google's view runs with (docs/watches.md, "Google's view").
public struct GoogleWatchSettings: Sendable, Equatable {
    public static let digitalAssetLinks = GoogleListResponse.defaultURL

    /// Off by default: nothing leaves the server unless asked.
    public var enabled = false
    /// Digital Asset Links' `statements:list`; the query is appended.
    public var url = GoogleWatchSettings.digitalAssetLinks
    /// A PEM CA trusted besides the system's (a stand-in, tests).
    public var caFile: String?
    /// Seconds between two checks of one domain (with jitter), taken as given.
    public var interval = 21_600
    /// Requests per minute, all domains together.
    public var ratePerMinute = 60
    /// A file holding an API key, sent as `key=`; nil sends none.
    public var keyFile: String?
    /// One request, connect to the last byte, in seconds (`timeouts.googleFetch` in the config file).
    public var fetchTimeout = 10.0

    public init() {}
}
