/// Deadlines, in seconds (docs/serving.md; docs/settings.md, "Where settings come from"): a config file gives them as
/// one object, `{"timeouts": {"keepAlive": 5}}`.
extension SettingGroup {
    static let timeoutSettings: [Setting] = [
        Setting(
            "timeouts.handshake", \.timeouts.handshake, seconds("handshake"), valueName: "seconds", example: "4",
            help: "Seconds from accepting a TLS connection to the end of its handshake"),
        Setting(
            "timeouts.requestHead", \.timeouts.requestHead, seconds("requestHead"), valueName: "seconds",
            example: "5", help: "Seconds from a request's first byte to the end of its head"),
        Setting(
            "timeouts.keepAlive", \.timeouts.keepAlive, seconds("keepAlive"), valueName: "seconds", example: "5",
            help: "Seconds an idle keep-alive connection stays open"),
        Setting(
            "timeouts.write", \.timeouts.write, seconds("write"), valueName: "seconds", example: "2.5",
            help: "Seconds without progress while a response is written"),
        Setting(
            "timeouts.shutdown", \.timeouts.shutdown, seconds("shutdown"), valueName: "seconds", example: "30",
            help: "Seconds a graceful stop waits for responses in flight"),
        Setting(
            "timeouts.cdnFetch", \.cdnWatch.fetchTimeout, seconds("cdnFetch"), valueName: "seconds",
            example: "2.5", help: "Seconds one fetch from Apple's CDN may take"),
        Setting(
            "timeouts.googleFetch", \.googleWatch.fetchTimeout, seconds("googleFetch"), valueName: "seconds",
            example: "3", help: "Seconds one request to Google's Digital Asset Links may take"),
    ]

    private static func seconds(_ name: String) -> SettingValue<Double> {
        .seconds(upTo: 3600, "timeouts.\(name) must be between 0 and 3600 seconds")
    }
}
