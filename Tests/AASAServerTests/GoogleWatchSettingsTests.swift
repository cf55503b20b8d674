import Testing

@testable import AASAServer

/// The Google watch's settings from a config file and the environment (docs/watches.md,
/// "Google's view"): off by default; files relative to the config file; bad values refused.
@Suite("Google watch settings")
struct GoogleWatchSettingsTests {
    @Test("the defaults: off, Google's API, every 6 hours, 60 a minute, no key")
    func defaults() {
        let settings = ServerConfiguration().googleWatch
        #expect(!settings.enabled)
        #expect(settings.url == "https://digitalassetlinks.googleapis.com/v1/statements:list")
        #expect(settings.interval == 21_600 && settings.ratePerMinute == 60)
        #expect(settings.caFile == nil && settings.keyFile == nil)
    }

    @Test("from the config file, files relative to it")
    func configFile() throws {
        var settings = ServerConfiguration()
        let text =
            #"{"googleWatch": true, "googleWatchUrl": "https://dal.example/v1/statements:list", "#
            + #""googleWatchCa": "ca.pem", "googleWatchInterval": 3600, "googleWatchRate": 30, "#
            + #""googleWatchKeyFile": "/run/secrets/key", "timeouts": {"googleFetch": 4}}"#
        try settings.applyFile(contents: Array(text.utf8), path: "/etc/aasa/aasa-server.json")
        let google = settings.googleWatch
        #expect(google.enabled && google.url == "https://dal.example/v1/statements:list")
        #expect(google.caFile == "/etc/aasa/ca.pem" && google.keyFile == "/run/secrets/key")
        #expect(google.interval == 3600 && google.ratePerMinute == 30 && google.fetchTimeout == 4)
        try settings.applyFile(contents: Array(#"{"googleWatchKeyFile": null}"#.utf8), path: "/etc/a.json")
        #expect(settings.googleWatch.keyFile == nil)
    }

    @Test("from the environment")
    func environment() throws {
        var settings = ServerConfiguration()
        try settings.applyEnvironment([
            "AASA_GOOGLE_WATCH": "on", "AASA_GOOGLE_WATCH_INTERVAL": "60", "AASA_GOOGLE_WATCH_RATE": "600",
            "AASA_GOOGLE_WATCH_KEY_FILE": "/run/key", "AASA_GOOGLE_WATCH_CA": "/etc/ca.pem",
        ])
        let google = settings.googleWatch
        #expect(google.enabled && google.interval == 60 && google.ratePerMinute == 600)
        #expect(google.keyFile == "/run/key" && google.caFile == "/etc/ca.pem")
    }

    @Test(
        "bad values are refused with the setting's name",
        arguments: [
            ("AASA_GOOGLE_WATCH", "maybe", "the Google watch must be on or off"),
            ("AASA_GOOGLE_WATCH_URL", "http://dal.example/", "must be an https:// URL"),
            ("AASA_GOOGLE_WATCH_INTERVAL", "0", "1 to 604800 seconds"),
            ("AASA_GOOGLE_WATCH_RATE", "6001", "1 to 6000 requests per minute"),
        ])
    func refused(name: String, value: String, message: String) {
        var settings = ServerConfiguration()
        #expect {
            try settings.applyEnvironment([name: value])
        } throws: { error in
            "\(error)".contains("\(name): ") && "\(error)".contains(message)
        }
    }
}
