/// What the CDN watch runs with (docs/watches.md, "Apple's CDN").
public struct CDNWatchSettings: Sendable, Equatable {
    public static let appleCDN = "https://app-site-association.cdn-apple.com/a/v1/"

    /// Off by default: nothing leaves the server unless asked.
    public var enabled = false
    /// The domain is appended.
    public var url = CDNWatchSettings.appleCDN
    /// A PEM CA trusted besides the system's (a private CDN, tests).
    public var caFile: String?
    /// Seconds between two checks of one domain (with jitter), taken as given.
    public var interval = 21_600
    /// Fetches per minute, all domains together.
    public var ratePerMinute = 60
    /// One fetch, connect to the last byte, in seconds (`timeouts.cdnFetch` in the config file).
    public var fetchTimeout = 10.0
    /// A request whose User-Agent contains this is Apple's fetcher (community reports:
    /// `AASA-Bot/…`); recorded with the watch on or off.
    public var appleFetcherAgent = "AASA-Bot/"

    public init() {}
}
