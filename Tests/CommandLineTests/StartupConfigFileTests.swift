import Foundation
import TestSupport
import Testing

/// The start-up event names the config file read, by its absolute path, or says none was.
@Suite("serve start-up: the config file read")
struct StartupConfigFileTests {
    static let file = SiteFixtures.webCredentialsAASA()

    @Test("Config/aasa-server.json in the working directory is named, absolute; without it, none")
    func configFileIsLogged() throws {
        let folder = try TemporaryFolder()
        // A config file's paths are relative to its folder.
        try folder.write("Config/elsewhere/example.com/apple-app-site-association", Self.file)
        try folder.write("sites/example.com/apple-app-site-association", Self.file)

        let without = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1"])
        _ = without.stop()
        #expect(without.errors.contains(" info starting config_file=none\n"))

        try folder.write("Config/aasa-server.json", #"{"sites": "elsewhere"}"#)
        let with = try RunningServer(in: folder.url, ["--workers", "1"])
        _ = with.stop()
        let path = folder.url.resolvingSymlinksInPath().appendingPathComponent("Config/aasa-server.json").path
        #expect(with.errors.contains(" info starting config_file=\(path)\n"))
        #expect(!with.errors.contains("config_file=none"))
    }
}
