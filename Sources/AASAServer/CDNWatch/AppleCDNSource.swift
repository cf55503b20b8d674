import AASALoop
import AASASiteServing
import AASATransport
import AssociationKit

/// Apple's CDN as a watched cache: each domain's copy of its apple-app-site-association at
/// the CDN URL with the domain appended (docs/watches.md, "Apple's CDN").
struct AppleCDNSource: CacheSource {
    let settings: CDNWatchSettings

    var name: String { "cdn" }
    var title: String { "Apple's CDN" }
    var url: String { settings.url }
    var shownRequest: String { settings.url + "DOMAIN" }
    var caFile: String? { settings.caFile }
    var interval: Int { settings.interval }
    var ratePerMinute: Int { settings.ratePerMinute }
    var fetchTimeout: Double { settings.fetchTimeout }

    func file(of content: SiteContent) -> PreparedFile? { content.apple }

    func meaning(of file: PreparedFile) -> MeaningFingerprint? { MeaningFingerprint(json: file.json) }

    func request(for domain: String) -> HTTPSURL? { HTTPSURL(settings.url + domain) }

    func answer(_ result: Result<HTTPClientResponse, HTTPClientFailure>) -> CacheAnswer {
        CacheAnswer(appleCDN: result)
    }
}
