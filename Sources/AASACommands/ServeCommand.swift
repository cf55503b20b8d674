import AASAACME
import AASAFileCommands
import AASAServer
import AASASites
import AASATransport
import ArgumentParser
import Foundation

/// `aasa-server serve [--config FILE] [--sites DIR] [--certs DIR] [--http ADDR:PORT]
/// [--https ADDR:PORT] [--admin ADDR:PORT] …` (docs/usage.md, "Serve").
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the association files of a sites directory.",
        discussion: """
            Settings come from built-in defaults, then the config file (--config, else \
            Config/aasa-server.json when present), then AASA_* environment variables, then \
            flags. Every site is validated first: any error stops start-up with every \
            diagnostic printed (exit 1), unless --invalid-sites skip, which serves the valid \
            sites and reports the invalid ones as a reload does. SIGHUP reloads the sites; SIGTERM or SIGINT stops \
            gracefully (exit 0). The access log goes to stdout, events to stderr. Listening sockets passed by \
            systemd (LISTEN_FDS, sd_listen_fds(3)) serve the listener with the same address, so a restart \
            refuses no connection; one that matches no listener stops start-up (exit 2).
            """)

    static let defaultConfigFile = "Config/aasa-server.json"

    /// The built-in settings: help shows them, so it cannot drift from what `serve` uses.
    private static let defaults = ServerConfiguration()

    /// An on/off setting's help form.
    private static func onOff(_ value: Bool) -> String { value ? "on" : "off" }

    /// A listener's help form: its address, or off.
    private static func listener(_ address: SocketAddress?) -> String { address.map { "\($0)" } ?? "off" }

    @Option(help: "A JSON config file (default: \(defaultConfigFile) when it exists).")
    var config: String?

    @Option(help: "The sites directory: one folder per domain (default \(defaults.sites)).")
    var sites: String?

    @Option(help: "The certificates directory (HTTPS; default \(defaults.certs)).")
    var certs: String?

    @Option(help: "Plain HTTP listener, ADDR:PORT, or off (default \(listener(defaults.http))).")
    var http: String?

    @Option(help: "HTTPS listener, ADDR:PORT, or off (default \(listener(defaults.https))).")
    var https: String?

    @Option(
        help: """
            Admin listener (health, metrics, status page), ADDR:PORT or off (default \(listener(defaults.admin))); \
            loopback only unless --admin-public.
            """)
    var admin: String?

    @Flag(help: "Allow the admin listener on a non-loopback address; needs --admin-token-file (default off).")
    var adminPublic = false

    @Option(
        name: .customLong("admin-host"),
        help: "A host name the admin listener answers besides IP addresses and localhost (repeatable; default none).")
    var adminHosts: [String] = []

    @Option(help: "A file with the bearer token every admin path but /healthz and /readyz then needs (default none).")
    var adminTokenFile: String?

    @Option(help: "Event loops (0: one per core; default \(defaults.workers)).")
    var workers: String?

    @Option(
        help: """
            Open client connections, all loops together; past it the longest idle one is closed, else \
            accepting waits (default \(defaults.maxConnections)).
            """)
    var maxConnections: String?

    @Option(
        help: """
            TLS handshakes in progress, all loops together; past it the oldest is closed \
            (default \(defaults.maxHandshakes)).
            """)
    var maxHandshakes: String?

    @Option(help: "Access log and event format: text or json (default \(defaults.logFormat.rawValue)).")
    var logFormat: String?

    @Option(help: "Access log on or off (default \(onOff(defaults.accessLog))).")
    var accessLog: String?

    @Option(
        help: """
            Per-site series on /metrics, on or off (default \(onOff(defaults.metricsPerSite)); capped at the 1,000 \
            busiest sites).
            """)
    var metricsPerSite: String?

    @Option(
        help: "Invalid sites at start-up: refuse (do not start) or skip (serve the valid sites; default refuse).")
    var invalidSites: String?

    @Option(
        help: """
            Seconds a served file deleted from a site folder keeps serving its last copy \
            (0: 404 at once; default \(defaults.deletedFileGrace)).
            """)
    var deletedFileGrace: String?

    @Option(help: "The Cache-Control header of served files (default \(defaults.cacheControl)).")
    var cacheControl: String?

    @Option(help: "The certificate for clients without SNI: a name in it, or its folder's name (default: the first).")
    var defaultCertificate: String?

    @Option(
        help: """
            Certificates from an ACME CA (Let's Encrypt by default), on or off \
            (default \(onOff(defaults.acme.enabled))); needs --https.
            """)
    var acme: String?

    @Option(help: "The ACME directory URL (default Let's Encrypt's, \(ACMESettings.letsEncrypt)).")
    var acmeDirectory: String?

    @Option(help: "The contact address of the ACME account (default none).")
    var acmeEmail: String?

    @Option(help: "A PEM CA file to trust, besides the system's, when talking to the ACME server (default none).")
    var acmeDirectoryCa: String?

    @Option(help: "The key identifier for the ACME CA's external account binding (RFC 8555 §7.3.4; default none).")
    var acmeEabKid: String?

    @Option(help: "A file (mode 0600) holding the base64url HMAC key for --acme-eab-kid (default none).")
    var acmeEabHmacKeyFile: String?

    @Option(
        help: "The ACME profile to order under, one the directory lists (tlsserver, classic, ...; default the CA's).")
    var acmeProfile: String?

    @Option(help: "ACME challenge types in preference order (default: http-01,tls-alpn-01 as the listeners allow).")
    var acmeChallenges: String?

    @Option(
        help:
            "Certificates on demand for names of wildcard sites, on or off (default \(onOff(defaults.acme.onDemand))).")
    var acmeOnDemand: String?

    @Option(help: "New on-demand names per hour, all together (default \(defaults.acme.onDemandPerHour)).")
    var acmeOnDemandRate: String?

    @Option(help: "New on-demand names per registered domain in any 7 days (default \(defaults.acme.onDemandWeekly)).")
    var acmeOnDemandWeekly: String?

    @Option(
        name: .customLong("acme-on-demand-names"),
        help: """
            A pattern on-demand names must match, * within one label: pr-*.staging.example.com (repeatable; \
            default any name of a wildcard site).
            """)
    var acmeOnDemandNames: [String] = []

    @Option(
        help: """
            A URL asked GET URL?domain=NAME before an on-demand name is ordered; 2xx allows it (https, or http on \
            loopback; default none).
            """)
    var acmeOnDemandAsk: String?

    @Option(help: "A PEM CA file to trust, besides the system's, when the on-demand ask URL is https (default none).")
    var acmeOnDemandAskCa: String?

    @Option(
        help: "Watch Apple's CDN copy of every domain's file, on or off (default \(onOff(defaults.cdnWatch.enabled))).")
    var cdnWatch: String?

    @Option(help: "The CDN URL the domain is appended to (default Apple's, \(defaults.cdnWatch.url)).")
    var cdnWatchUrl: String?

    @Option(help: "A PEM CA file to trust, besides the system's, when asking the CDN (default none).")
    var cdnWatchCa: String?

    @Option(help: "Seconds between two checks of one domain (default \(defaults.cdnWatch.interval)).")
    var cdnWatchInterval: String?

    @Option(help: "CDN fetches per minute, all domains together (default \(defaults.cdnWatch.ratePerMinute)).")
    var cdnWatchRate: String?

    @Option(help: "The User-Agent part that marks Apple's fetcher (default \(defaults.cdnWatch.appleFetcherAgent)).")
    var appleFetcherAgent: String?

    @Option(
        help: """
            Watch Google's view of every domain's assetlinks.json, on or off (default \
            \(onOff(defaults.googleWatch.enabled))).
            """)
    var googleWatch: String?

    @Option(help: "Digital Asset Links' statements:list URL (default \(defaults.googleWatch.url)).")
    var googleWatchUrl: String?

    @Option(help: "A PEM CA file to trust, besides the system's, when asking Google (default none).")
    var googleWatchCa: String?

    @Option(help: "Seconds between two checks of one domain by Google (default \(defaults.googleWatch.interval)).")
    var googleWatchInterval: String?

    @Option(help: "Google requests per minute, all domains together (default \(defaults.googleWatch.ratePerMinute)).")
    var googleWatchRate: String?

    @Option(help: "A file holding an API key for Google, sent as key= (default none).")
    var googleWatchKeyFile: String?

    @Option(
        name: .customLong("apple-fetcher-network"),
        help: "A network (CIDR) Apple's fetcher comes from; fetches from it are verified (repeatable; default none).")
    var appleFetcherNetworks: [String] = []

    @Option(
        name: .customLong("trusted-proxy"),
        help: "A proxy (CIDR) whose X-Forwarded-For names the client (repeatable; default none).")
    var trustedProxies: [String] = []

    func run() throws {
        let settings: ServerConfiguration
        let configFile: String?
        do {
            (settings, configFile) = try resolveConfiguration()
        } catch {
            StandardStreams.writeError("error: \(error.description)\n")
            throw CommandFailure.unreadable
        }
        let code = ServerLaunch.run(settings, configFile: configFile)
        if code != 0 { throw CommandFailure(code: code) }
    }

    /// The settings from the config file, the environment and the flags, and the config file
    /// read (its absolute path), if any.
    func resolveConfiguration() throws(ServerConfiguration.Problem) -> (ServerConfiguration, String?) {
        var settings = ServerConfiguration()
        let environment = ProcessInfo.processInfo.environment
        var file = config ?? environment["AASA_CONFIG"]
        if file == nil && FileManager.default.fileExists(atPath: Self.defaultConfigFile) {
            file = Self.defaultConfigFile
        }
        if let file { try settings.applyFile(at: file) }
        try settings.applyEnvironment(environment)
        let flags: [(ServerConfiguration.Setting, String?)] = [
            (.sites, sites), (.certs, certs), (.http, http), (.https, https), (.admin, admin), (.workers, workers),
            (.logFormat, logFormat), (.accessLog, accessLog), (.cacheControl, cacheControl),
            (.defaultCertificate, defaultCertificate), (.metricsPerSite, metricsPerSite), (.acme, acme),
            (.acmeDirectory, acmeDirectory), (.acmeEmail, acmeEmail), (.acmeDirectoryCa, acmeDirectoryCa),
            (.acmeChallenges, acmeChallenges), (.acmeOnDemand, acmeOnDemand), (.acmeOnDemandRate, acmeOnDemandRate),
            (.acmeOnDemandWeekly, acmeOnDemandWeekly), (.acmeOnDemandAsk, acmeOnDemandAsk),
            (.acmeOnDemandAskCa, acmeOnDemandAskCa), (.acmeEabKid, acmeEabKid),
            (.acmeEabHmacKeyFile, acmeEabHmacKeyFile), (.acmeProfile, acmeProfile),
            (.cdnWatch, cdnWatch), (.cdnWatchUrl, cdnWatchUrl), (.cdnWatchCa, cdnWatchCa),
            (.cdnWatchInterval, cdnWatchInterval), (.cdnWatchRate, cdnWatchRate),
            (.appleFetcherAgent, appleFetcherAgent), (.adminTokenFile, adminTokenFile), (.invalidSites, invalidSites),
            (.deletedFileGrace, deletedFileGrace),
            (.maxConnections, maxConnections), (.maxHandshakes, maxHandshakes),
            (.googleWatch, googleWatch), (.googleWatchUrl, googleWatchUrl), (.googleWatchCa, googleWatchCa),
            (.googleWatchInterval, googleWatchInterval), (.googleWatchRate, googleWatchRate),
            (.googleWatchKeyFile, googleWatchKeyFile),
        ]
        for case (let setting, let value?) in flags {
            try settings.apply(setting, value, source: "--" + setting.rawValue.kebabCased)
        }
        for (setting, values, flag) in [
            (ServerConfiguration.Setting.appleFetcherNetworks, appleFetcherNetworks, "--apple-fetcher-network"),
            (.trustedProxies, trustedProxies, "--trusted-proxy"),
            (.acmeOnDemandNames, acmeOnDemandNames, "--acme-on-demand-names"),
        ] where !values.isEmpty {
            try settings.apply(setting, values.joined(separator: ","), source: flag)
        }
        if !adminHosts.isEmpty {
            try settings.apply(.adminHosts, adminHosts.joined(separator: ","), source: "--admin-host")
        }
        if adminPublic { settings.adminPublic = true }
        return (settings, file.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
    }
}

extension String {
    var kebabCased: String {
        reduce(into: "") { result, character in
            if character.isUppercase { result += "-" }
            result += character.lowercased()
        }
    }
}
