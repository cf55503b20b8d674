/// The watch over Apple's CDN and the record of Apple's own fetches (docs/watches.md, "Apple's
/// CDN").
extension SettingGroup {
    static let cdnWatchSettings: [Setting] = [
        Setting(
            "cdnWatch", \.cdnWatch.enabled, .onOff("the CDN watch must be on or off"), valueName: "on|off",
            example: "on", help: "Watch Apple's CDN copy of every domain's file, on or off"),
        Setting(
            "cdnWatchUrl", \.cdnWatch.url,
            .text("the CDN watch URL must be an https:// URL ending in /") {
                $0.hasPrefix("https://") && $0.hasSuffix("/")
            }, valueName: "url", example: "https://cdn.example/a/v1/", help: "The CDN URL the domain is appended to",
            defaultText: "Apple's, \(CDNWatchSettings.appleCDN)"),
        Setting(
            "cdnWatchCa", \.cdnWatch.caFile, .file, valueName: "file", example: "/etc/aasa/cdn-ca.pem",
            help: "A PEM CA file to trust, besides the system's, when asking the CDN"),
        Setting(
            "cdnWatchInterval", \.cdnWatch.interval,
            .integer(1...604_800, "the CDN watch interval must be 1 to 604800 seconds"), valueName: "seconds",
            example: "600", help: "Seconds between two checks of one domain"),
        Setting(
            "cdnWatchRate", \.cdnWatch.ratePerMinute,
            .integer(1...6000, "the CDN watch rate must be 1 to 6000 fetches per minute"), valueName: "n",
            example: "6", help: "CDN fetches per minute, all domains together"),
        Setting(
            "appleFetcherAgent", \.cdnWatch.appleFetcherAgent,
            .printable("the Apple fetcher agent must be printable ASCII"), valueName: "text", example: "Bot/2",
            help: "The User-Agent part that marks Apple's fetcher"),
        Setting(
            "appleFetcherNetworks", \.appleFetcherNetworks, .networks, flag: "apple-fetcher-network",
            valueName: "cidr", example: "17.0.0.0/8,2620:149::/32",
            help: "A network (CIDR) Apple's fetcher comes from; fetches from it are verified (repeatable)"),
        Setting(
            "trustedProxies", \.trustedProxies, .networks, flag: "trusted-proxy", valueName: "cidr",
            example: "10.0.0.0/8", help: "A proxy (CIDR) whose X-Forwarded-For names the client (repeatable)"),
    ]
}
