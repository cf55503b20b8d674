/// The watch over Google's view of the sites' assetlinks.json (docs/watches.md, "Google's view").
extension SettingGroup {
    static let googleWatchSettings: [Setting] = [
        Setting(
            "googleWatch", \.googleWatch.enabled, .onOff("the Google watch must be on or off"), valueName: "on|off",
            example: "on", help: "Watch Google's view of every domain's assetlinks.json, on or off"),
        Setting(
            "googleWatchUrl", \.googleWatch.url,
            .text("the Google watch URL must be an https:// URL") { $0.hasPrefix("https://") && !$0.contains("#") },
            valueName: "url", example: "https://dal.example/v1/statements:list",
            help: "Digital Asset Links' statements:list URL the query is appended to",
            defaultText: "Google's, \(GoogleWatchSettings.digitalAssetLinks)"),
        Setting(
            "googleWatchCa", \.googleWatch.caFile, .file, valueName: "file", example: "/etc/aasa/google-ca.pem",
            help: "A PEM CA file to trust, besides the system's, when asking Google"),
        Setting(
            "googleWatchInterval", \.googleWatch.interval,
            .integer(1...604_800, "the Google watch interval must be 1 to 604800 seconds"), valueName: "seconds",
            example: "3600", help: "Seconds between two checks of one domain by Google"),
        Setting(
            "googleWatchRate", \.googleWatch.ratePerMinute,
            .integer(1...6000, "the Google watch rate must be 1 to 6000 requests per minute"), valueName: "n",
            example: "6", help: "Google requests per minute, all domains together"),
        Setting(
            "googleWatchKeyFile", \.googleWatch.keyFile, .file, valueName: "file", example: "/etc/aasa/google-key",
            help: "A file holding an API key for Google, sent as key="),
    ]
}
