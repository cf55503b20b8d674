import AASALoop
import AASASiteServing
import AASATransport
import AssociationKit
import Foundation

/// Google's Digital Asset Links API as a watched cache: what Google's verifier holds of each
/// domain's assetlinks.json, asked with `statements:list` for `handle_all_urls` and compared
/// by the grants it makes (`AppLinkGrants`; docs/watches.md, "Google's view").
struct GoogleSource: CacheSource {
    struct KeyProblem: Error, CustomStringConvertible {
        let description: String
    }

    static let keyCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))

    let settings: GoogleWatchSettings
    /// The API key's query item (`&key=…`), read once at start; empty without a key file.
    let keyItem: String

    /// Reads the key file, if any: one line of letters, digits, `-`, `_` and `.`.
    init(settings: GoogleWatchSettings) throws(KeyProblem) {
        self.settings = settings
        guard let path = settings.keyFile else {
            keyItem = ""
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw KeyProblem(description: "\(path): cannot read the Google watch's API key")
        }
        let key = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let allowed = key.unicodeScalars.allSatisfy { $0.isASCII && (Self.keyCharacters.contains($0)) }
        guard !key.isEmpty, allowed else {
            throw KeyProblem(description: "\(path): an API key is one line of letters, digits, -, _ and .")
        }
        keyItem = "&key=" + key
    }

    var name: String { "google" }
    var title: String { "Google" }
    var url: String { settings.url }
    var shownRequest: String { query("DOMAIN", key: "") }
    var caFile: String? { settings.caFile }
    var interval: Int { settings.interval }
    var ratePerMinute: Int { settings.ratePerMinute }
    var fetchTimeout: Double { settings.fetchTimeout }

    func file(of content: SiteContent) -> PreparedFile? { content.android }

    func meaning(of file: PreparedFile) -> MeaningFingerprint? { AppLinkGrants(assetLinks: file.json)?.fingerprint }

    func request(for domain: String) -> HTTPSURL? { HTTPSURL(query(domain, key: keyItem)) }

    /// `statements:list` for the domain's `handle_all_urls` statements, extensions included.
    func query(_ domain: String, key: String) -> String {
        GoogleListResponse.query(settings.url, domain: domain, key: key)
    }

    func answer(_ result: Result<HTTPClientResponse, HTTPClientFailure>) -> CacheAnswer {
        CacheAnswer(listResponse: result)
    }
}
