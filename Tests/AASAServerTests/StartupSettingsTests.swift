import Testing

@testable import AASAServer

/// `invalidSites`, `appleFetcherNetworks` and `trustedProxies` from a config file and the
/// environment; nil expected means refused.
@Suite("start-up and fetcher settings")
struct StartupSettingsTests {
    @Test(
        "from the config file",
        arguments: [
            (#"{"invalidSites": "skip"}"#, "skip", [String](), [String]()),
            (#"{"invalidSites": "refuse"}"#, "refuse", [], []),
            (#"{"invalidSites": "ignore"}"#, nil, [], []),
            (
                #"{"appleFetcherNetworks": ["17.0.0.0/8", "2620:149::/32"]}"#, "refuse",
                ["17.0.0.0/8", "2620:149::/32"], []
            ),
            (#"{"appleFetcherNetworks": "17.0.0.0/8"}"#, "refuse", ["17.0.0.0/8"], []),
            (#"{"appleFetcherNetworks": ["17.0.0.0/33"]}"#, nil, [], []),
            (#"{"trustedProxies": ["10.0.0.0/8"], "appleFetcherNetworks": null}"#, "refuse", [], ["10.0.0.0/8"]),
        ])
    func configFile(text: String, invalidSites: String?, networks: [String], proxies: [String]) {
        var settings = ServerConfiguration()
        do {
            try settings.applyFile(contents: Array(text.utf8), path: "/etc/aasa/aasa-server.json")
            #expect(settings.invalidSites.rawValue == invalidSites)
            #expect(settings.appleFetcherNetworks.map(\.description) == networks)
            #expect(settings.trustedProxies.map(\.description) == proxies)
        } catch {
            #expect(invalidSites == nil, "\(error.description)")
        }
    }

    @Test("from the environment")
    func environment() throws {
        var settings = ServerConfiguration()
        try settings.applyEnvironment([
            "AASA_INVALID_SITES": "skip", "AASA_APPLE_FETCHER_NETWORKS": "17.0.0.0/8, 192.0.2.1",
            "AASA_TRUSTED_PROXIES": "::1",
        ])
        #expect(settings.invalidSites == .skip)
        #expect(settings.appleFetcherNetworks.map(\.description) == ["17.0.0.0/8", "192.0.2.1"])
        #expect(settings.trustedProxies.map(\.description) == ["::1"])
    }

    @Test(
        "the deleted-file grace: 60 s by default, 0 to 86400 from a file or the environment",
        arguments: [("30", 30), ("0", 0), ("86400", 86_400), ("86401", nil), ("-1", nil), ("1m", nil)]
            as [(String, Int?)])
    func deletedFileGrace(value: String, expected: Int?) {
        #expect(ServerConfiguration().deletedFileGrace == 60)
        var fromFile = ServerConfiguration()
        var fromEnvironment = ServerConfiguration()
        do {
            try fromFile.applyFile(contents: Array(#"{"deletedFileGrace": \#(value)}"#.utf8), path: "/etc/aasa.json")
            try fromEnvironment.applyEnvironment(["AASA_DELETED_FILE_GRACE": value])
            #expect(fromFile.deletedFileGrace == expected && fromEnvironment.deletedFileGrace == expected)
        } catch {
            #expect(expected == nil, "\(error.description)")
        }
    }
}
