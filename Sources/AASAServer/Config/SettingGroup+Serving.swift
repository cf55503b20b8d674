import AASALoop

/// The settings of what is served and how much: sites, listeners, loops and caps, logs
/// (docs/usage.md, "Serve").
extension SettingGroup {
    typealias Setting = ServerConfiguration.Setting

    static let siteSettings: [Setting] = [
        Setting(
            "sites", \.sites, .folder, valueName: "dir", example: "/srv/aasa/sites",
            help: "The sites directory: one folder per domain"),
        Setting(
            "certs", \.certs, .folder, valueName: "dir", example: "/srv/aasa/certs",
            help: "The certificates directory (HTTPS)"),
        Setting(
            "defaultCertificate", \.defaultCertificate, .nameOrOff(), valueName: "name|off", example: "example.com",
            help: "The certificate for clients without SNI or with a name no certificate covers: a name in it, or its "
                + "folder's name; off refuses them with the alert unrecognized_name"),
        Setting(
            "certificateCacheMiB", \.certificateCacheMiB,
            .integer(1...65_536, "the certificate cache must be 1 to 65536 MiB"), valueName: "n", example: "16",
            help: "MiB of certificates kept loaded for handshakes (each loaded when its name is first asked for; "
                + "the least recently used go first)"),
        Setting(
            "invalidSites", \.invalidSites, .choice("invalid sites must be refuse or skip"), valueName: "refuse|skip",
            example: "skip",
            help: "Invalid sites at start-up: refuse (do not start) or skip (serve the valid sites)"),
        Setting(
            "deletedFileGrace", \.deletedFileGrace,
            .integer(0...86_400, "the deleted-file grace must be 0 (none) to 86400 seconds"), valueName: "seconds",
            example: "5",
            help: "Seconds a served file deleted from a site folder keeps serving its last copy (0: 404 at once)"),
        Setting(
            "cacheControl", \.cacheControl, .printable("cache control must be printable ASCII"), valueName: "value",
            example: "max-age=60",
            help: "The Cache-Control header of the association files and well-known/ files (other kinds: their own)"),
    ]

    static let listenerSettings: [Setting] = [
        Setting(
            "http", \.http, .listener, valueName: "addr:port|off", example: "[::1]:8081",
            help: "Plain HTTP listener, ADDR:PORT, or off"),
        Setting(
            "https", \.https, .listener, valueName: "addr:port|off", example: "127.0.0.1:8443",
            help: "HTTPS listener, ADDR:PORT, or off"),
    ]

    static let limitSettings: [Setting] = [
        Setting(
            "workers", \.workers, .integer(0...1024, "workers must be 0 (one per core) to 1024"), valueName: "n",
            example: "3", help: "Event loops (0: one per core)"),
        Setting(
            "maxConnections", \.maxConnections, .integer(1...1_048_576, "max connections must be 1 to 1048576"),
            valueName: "n", example: "500",
            help: "Open client connections, all loops together; past it the longest idle one is closed, else "
                + "accepting waits"),
        Setting(
            "maxHandshakes", \.maxHandshakes, .integer(1...1_048_576, "max handshakes must be 1 to 1048576"),
            valueName: "n", example: "100",
            help: "TLS handshakes in progress, all loops together; past it the oldest is closed"),
        Setting(
            "limits.requestLineBytes", \.limits.requestLineBytes, limit("requestLineBytes"), valueName: "bytes",
            example: "4096", help: "The longest request line; a longer one is answered 414"),
        Setting(
            "limits.headerBytes", \.limits.headerBytes, limit("headerBytes"), valueName: "bytes", example: "8192",
            help: "The most bytes of a request's header fields; more is answered 431"),
        Setting(
            "limits.headerCount", \.limits.headerCount, limit("headerCount"), valueName: "n", example: "32",
            help: "The most header fields in a request; more is answered 431"),
        Setting(
            "limits.waitingConnections", \.limits.waitingConnections, limit("waitingConnections"), valueName: "n",
            example: "128",
            help: "Connections each event loop keeps waiting for a certificate load or a challenge lookup; past "
                + "it the longest waiting of the client with the most waiting is closed"),
    ]

    /// A whole number from 1 to 1048576; as before these were rows, a config file's 8192.0 or
    /// 8.192e3 is one too.
    private static func limit(_ name: String) -> SettingValue<Int> {
        SettingValue(
            read: { text throws(ServerConfiguration.Problem) in
                guard let number = Double(text), number == number.rounded(), number >= 1, number <= 1_048_576 else {
                    throw ServerConfiguration.Problem(
                        description: "limits.\(name) must be a whole number from 1 to 1048576")
                }
                return Int(number)
            }, show: { "\($0)" })
    }

    static let logSettings: [Setting] = [
        Setting(
            "logFormat", \.logFormat, .choice("log format must be text or json"), valueName: "text|json",
            example: "json", help: "Access log and event format: text or json"),
        Setting(
            "accessLog", \.accessLog, .onOff("access log must be on or off"), valueName: "on|off", example: "off",
            help: "Access log on or off"),
    ]
}
