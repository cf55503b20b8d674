import AASAACME
import AASALoop
import AASASiteServing
import AASAStore
import AASASystem
import AASATransport
import Foundation
@preconcurrency import Glibc

/// Everything `serve` runs with. Built from defaults, then `Config/aasa-server.json` (or
/// `--config`), then `AASA_*` environment variables, then flags (docs/usage.md, "Serve"); each
/// setting those give is a row of a `SettingGroup` table that names the field it lands in.
public struct ServerConfiguration: Sendable, Equatable {
    public var sites = "Config/sites"
    public var certs = "certs"
    public var http: SocketAddress? = SocketAddress.loopback(port: 8080)
    public var https: SocketAddress?
    /// Loopback by default: the admin listener shows every site and metric.
    public var admin: SocketAddress? = SocketAddress.loopback(port: 9090)
    /// Set to put the admin listener on a non-loopback address on purpose; it then needs
    /// `adminTokenFile`.
    public var adminPublic = false
    /// Host names the admin listener answers besides IP literals and `localhost`: lower-case,
    /// without a port or a trailing dot (docs/security.md, "The admin listener").
    public var adminHosts: [String] = []
    /// A file holding the bearer token every admin path but /healthz and /readyz asks for.
    public var adminTokenFile: String?
    /// Event loops; 0 means one per core.
    public var workers = 0
    public var logFormat = LogFormat.text
    public var accessLog = true
    /// Per-site series on /metrics (capped, `MetricsReport.perSiteLimit`); off keeps the
    /// exposition's size independent of the number of sites.
    public var metricsPerSite = false
    public var cacheControl = "max-age=3600"
    /// Whether start-up refuses every site when one is invalid, or serves the valid ones.
    public var invalidSites = InvalidSites.refuse
    /// Seconds a served file deleted from a site folder that stays keeps serving its last
    /// copy (a deploy that deletes and writes it again); 0 serves 404 at once.
    public var deletedFileGrace = 60
    /// The certificate for clients without SNI or with an unknown name: a DNS name in it, or
    /// its folder's name; nil (`off`) refuses them with the alert unrecognized_name.
    public var defaultCertificate: String?
    /// The budget of the certificates loaded for handshakes, in MiB (approximate bytes, the
    /// least recently used go first): docs/certificates.md, "Many certificates".
    public var certificateCacheMiB = 64
    /// Certificates from an ACME CA (docs/acme.md, "Automatic certificates").
    public var acme = ACMESettings()
    /// Where replicas share ACME's state and the watches' (docs/acme.md, "Several replicas,
    /// one store"); nil: `acme/` under `certs` (`storeLocation`).
    public var store: StoreLocation?
    /// The 32-byte key that encrypts private keys in a PostgreSQL store.
    public var storeKeyFile: String?
    /// The watch over Apple's CDN copies, and the record of Apple's own fetches.
    public var cdnWatch = CDNWatchSettings()
    /// The watch over Google's view of the sites' assetlinks.json.
    public var googleWatch = GoogleWatchSettings()
    /// Networks Apple's fetcher is known to come from: a fetch from one is "verified", any
    /// other only "identified as Apple's fetcher" by its User-Agent. Empty by default.
    public var appleFetcherNetworks: [IPNetwork] = []
    /// Proxies whose `X-Forwarded-For` names the client; any other peer is the client itself.
    public var trustedProxies: [IPNetwork] = []
    /// Open client connections and TLS handshakes in progress, for the whole server (each
    /// loop takes its share). The defaults keep a flood of half-open handshakes inside a
    /// 128 MiB container (docs/security.md, "Connections and handshakes in total").
    public var maxConnections = 3_000
    public var maxHandshakes = 1_000
    public var timeouts = Timeouts()
    public var limits = HTTPLimits()

    public init() {}

    /// The challenge types ACME answers, in preference order: as given, else every one the
    /// listeners allow (HTTP-01 needs the HTTP listener, TLS-ALPN-01 the HTTPS one).
    public var acmeChallenges: [ChallengeType] {
        let possible = ChallengeType.allCases.filter { $0 == .http01 ? http != nil : https != nil }
        return (acme.challenges ?? possible).filter(possible.contains)
    }

    /// The store to open: as given, else the certificates folder's `acme/`.
    public var storeLocation: StoreLocation {
        store ?? .folder((certs as NSString).appendingPathComponent("acme"))
    }

    /// The number of event loops to start.
    public var loopCount: Int {
        workers > 0 ? workers : Posix.onlineProcessors()
    }
}
