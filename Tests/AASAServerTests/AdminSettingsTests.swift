import Testing

@testable import AASAServer

/// `adminHosts` and `adminTokenFile` from a config file and the environment.
@Suite("admin settings")
struct AdminSettingsTests {
    static let files: [(String, [String]?, String?)] = [
        (#"{"adminHosts": ["Admin.Internal.", "ops.example"]}"#, ["admin.internal", "ops.example"], nil),
        (#"{"adminHosts": "a.example, b.example"}"#, ["a.example", "b.example"], nil),
        (#"{"adminHosts": []}"#, [], nil),
        (#"{"adminHosts": null, "adminTokenFile": null}"#, [], nil),
        (#"{"adminTokenFile": "admin-token"}"#, [], "/etc/aasa/admin-token"),
        (#"{"adminTokenFile": "/run/secrets/token"}"#, [], "/run/secrets/token"),
        (#"{"adminHosts": ["bad host"]}"#, nil, nil),
        (#"{"adminHosts": ["a.example:9090"]}"#, nil, nil),
        (#"{"adminHosts": ["[::1]"]}"#, nil, nil),
        // The Kelvin sign lower-cases to an ASCII k.
        (#"{"adminHosts": ["\u212A.example"]}"#, nil, nil),
        (#"{"adminHosts": [""]}"#, [], nil),
        (#"{"adminHosts": [1]}"#, nil, nil),
        (#"{"adminHosts": {"a": 1}}"#, nil, nil),
    ]

    @Test("from the config file", arguments: files)
    func configFile(text: String, hosts: [String]?, tokenFile: String?) {
        var settings = ServerConfiguration()
        do {
            try settings.applyFile(contents: Array(text.utf8), path: "/etc/aasa/aasa-server.json")
            #expect(settings.adminHosts == hosts)
            #expect(settings.adminTokenFile == tokenFile)
        } catch {
            #expect(hosts == nil, "\(error.description)")
        }
    }

    @Test("from AASA_ADMIN_HOSTS and AASA_ADMIN_TOKEN_FILE")
    func environment() throws {
        var settings = ServerConfiguration()
        try settings.applyEnvironment(["AASA_ADMIN_HOSTS": "a.example,B.example", "AASA_ADMIN_TOKEN_FILE": "t"])
        #expect(settings.adminHosts == ["a.example", "b.example"])
        #expect(settings.adminTokenFile == "t")
    }
}
