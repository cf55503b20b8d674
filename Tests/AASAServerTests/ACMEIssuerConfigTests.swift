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
