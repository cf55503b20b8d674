import Testing

@testable import AASAServer

/// ACME issuers in the server's configuration file (docs/acme.md): the file is the server's,
/// so this stays with AASAServer while the issuers' own rules are tested with AASAACME.
@Suite("ACME issuers in a config file")
struct ACMEIssuerConfigTests {
    @Test("acmeIssuers in a config file: paths relative to it, unknown keys and half an EAB refused")
    func configFile() throws {
        var configuration = ServerConfiguration()
        try configuration.applyFile(
            contents: Array(
                """
                {"acmeIssuers": [{"directory": "https://a.example/dir", "profile": "tlsserver"},
                  {"directory": "https://b.example/dir", "ca": "b.pem", "eabKid": "k", "eabHmacKeyFile": "/keys/b"}],
                 "acmeEabHmacKeyFile": "eab.key"}
                """.utf8), path: "/etc/aasa/aasa-server.json")
        #expect(configuration.acme.issuerList?.map(\.label) == ["a.example", "b.example"])
        #expect(configuration.acme.issuerList?[0].profile == "tlsserver")
        #expect(configuration.acme.issuerList?[1].ca == "/etc/aasa/b.pem")
        #expect(configuration.acme.issuerList?[1].eabHmacKeyFile == "/keys/b")
        #expect(configuration.acme.eabHmacKeyFile == "/etc/aasa/eab.key")
        for (text, message) in [
            (#"{"acmeIssuers": [{"directory": "https://a.example/dir", "url": "x"}]}"#, "unknown key \"url\""),
            (#"{"acmeIssuers": [{"directory": "https://a.example/dir", "eabKid": "k"}]}"#, "needs both"),
            (#"{"acmeIssuers": [{"ca": "x.pem"}]}"#, "needs a directory"),
            (#"{"acmeIssuers": [{"directory": "http://a.example/dir"}]}"#, "https://"),
            (#"{"acmeIssuers": []}"#, "must be a list"),
        ] {
            var failing = ServerConfiguration()
            #expect {
                try failing.applyFile(contents: Array(text.utf8), path: "/etc/aasa/aasa-server.json")
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }
}

/// The on-demand names' settings (docs/acme.md, "Automatic certificates"): the config file's
/// list and the environment's comma-separated form, the ask URL's schemes, and the warning.
@Suite("ACME on-demand names in the settings")
struct ACMEOnDemandConfigTests {
    @Test("acmeOnDemandNames as a list, AASA_ACME_ON_DEMAND_NAMES comma-separated, the ask URL checked")
    func onDemandNames() throws {
        var configuration = ServerConfiguration()
        #expect(configuration.acme.onDemandWarning == nil)
        configuration.acme.enabled = true
        #expect(configuration.acme.onDemandWarning?.contains("anyone's to spend") == true)
        try configuration.applyFile(
            contents: Array(
                """
                {"acmeOnDemandNames": ["pr-*.staging.example.com", "*.preview.example.org"],
                 "acmeOnDemandAsk": "http://127.0.0.1:9000/ask", "acmeOnDemandAskCa": "ask.pem"}
                """.utf8),
            path: "/etc/aasa/aasa-server.json")
        #expect(configuration.acme.onDemandAskCA == "/etc/aasa/ask.pem")
        #expect(
            configuration.acme.onDemandNames.map(\.description) == [
                "pr-*.staging.example.com", "*.preview.example.org",
            ])
        #expect(configuration.acme.onDemandAsk == "http://127.0.0.1:9000/ask")
        #expect(configuration.acme.onDemandWarning == nil)
        try configuration.applyEnvironment([
            "AASA_ACME_ON_DEMAND_NAMES": "a-*.example.com, b.example.com", "AASA_ACME_ON_DEMAND_ASK": "",
        ])
        #expect(configuration.acme.onDemandNames.map(\.description) == ["a-*.example.com", "b.example.com"])
        #expect(configuration.acme.onDemandAsk == nil)
        try configuration.applyFile(
            contents: Array(#"{"acmeOnDemandNames": null, "acmeOnDemandAsk": null}"#.utf8), path: "/a.json")
        #expect(configuration.acme.onDemandNames.isEmpty && configuration.acme.onDemandAsk == nil)
        for url in ["https://ask.example.com/check", "http://[::1]:8080/ask?site=1", "http://localhost/ask"] {
            let ask = try #require(ServerConfiguration.Setting.named("acmeOnDemandAsk"))
            try configuration.apply(ask, url, source: "--acme-on-demand-ask")
        }
        for (key, value, message) in [
            ("acmeOnDemandAsk", "http://ask.example.com/ask", "loopback"),
            ("acmeOnDemandAsk", "http://10.0.0.1/ask", "loopback"), ("acmeOnDemandAsk", "ftp://127.0.0.1/", "https://"),
            ("acmeOnDemandNames", "pr-?.example.com", "no on-demand name pattern"),
            ("acmeOnDemandNames", "a..example.com", "no on-demand name pattern"),
        ] {
            let setting = try #require(ServerConfiguration.Setting.named(key))
            #expect {
                try configuration.apply(setting, value, source: "--flag")
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }
}
