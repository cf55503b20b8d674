import AASALoop
import AASASiteServing
import AASATransport
import AssociationKit

/// One platform's cache of a site's file, as `CacheWatcher` asks it: Apple's CDN
/// (`AppleCDNSource`) or Google's Digital Asset Links API (`GoogleSource`). The watcher owns
/// the schedule, the rate, the bounded verified fetch and the comparison; a source says which
/// file it caches, what that file means, where to ask and how to read the answer.
protocol CacheSource: Sendable {
    /// `cdn`, `google`: log prefix, thread names, the User-Agent's comment.
    var name: String { get }
    /// `Apple's CDN`, `Google`: the subject of the log lines and the status page's heading.
    var title: String { get }
    /// The URL of the settings.
    var url: String { get }
    /// What is asked, `DOMAIN` for the domain and no secret (the status page).
    var shownRequest: String { get }
    var caFile: String? { get }
    /// Seconds between two checks of one domain (with jitter).
    var interval: Int { get }
    /// Questions per minute, all domains together.
    var ratePerMinute: Int { get }
    /// One question, connect to the last byte, in seconds.
    var fetchTimeout: Double { get }

    /// The site's file this cache holds; nil: the site is not watched.
    func file(of content: SiteContent) -> PreparedFile?
    /// A served file's meaning, as an answer's copy is compared with it.
    func meaning(of file: PreparedFile) -> MeaningFingerprint?
    /// What is asked for `domain`; nil when the settings' URL is not https.
    func request(for domain: String) -> HTTPSURL?
    func answer(_ result: Result<HTTPClientResponse, HTTPClientFailure>) -> CacheAnswer
}
