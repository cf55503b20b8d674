import AASAStore
import Testing

@testable import AASAServer

/// `store` and `storeKeyFile` (docs/acme.md, "Several replicas, one store"): the default is
/// the certificates folder's `acme/`; a folder in a config file is relative to it, a URI is
/// kept as given; a key file with a folder store is refused before start.
@Suite("Store settings")
struct StoreSettingsTests {
    @Test("the default: acme/ under the certificates folder, no key file")
    func defaults() {
        var settings = ServerConfiguration()
        settings.certs = "/var/lib/aasa/certs"
        #expect(settings.store == nil && settings.storeKeyFile == nil)
        #expect(settings.storeLocation == .folder("/var/lib/aasa/certs/acme"))
        #expect(ServerLaunch.refusal(settings) == nil)
    }

    @Test(
        "from the config file: a folder relative to it, a URI as given",
        arguments: [
            ("shared/acme", StoreLocation.folder("/etc/aasa/shared/acme")),
            ("/mnt/nfs/acme", .folder("/mnt/nfs/acme")),
            (
                "postgresql://aasa@db/aasa?sslmode=verify-full",
                .postgres("postgresql://aasa@db/aasa?sslmode=verify-full")
            ),
        ])
    func configFile(text: String, location: StoreLocation) throws {
        var settings = ServerConfiguration()
        try settings.applyFile(contents: Array("{\"store\": \"\(text)\"}".utf8), path: "/etc/aasa/aasa-server.json")
        #expect(settings.storeLocation == location)
    }

    @Test("the environment; the password stays out of what help and reports show")
    func environment() throws {
        var settings = ServerConfiguration()
        try settings.applyEnvironment([
            "AASA_STORE": "postgres://aasa:s3cret@db:5432/aasa", "AASA_STORE_KEY_FILE": "/run/secrets/store.key",
        ])
        #expect(settings.storeLocation == .postgres("postgres://aasa:s3cret@db:5432/aasa"))
        #expect(settings.storeKeyFile == "/run/secrets/store.key")
        let shown = try #require(ServerConfiguration.Setting.named("store")).shown(settings)
        #expect(shown == "postgres aasa@db:5432/aasa")
        #expect(ServerLaunch.refusal(settings) == nil)
    }

    @Test("a key file with a folder store is refused")
    func keyFileWithFolder() throws {
        var settings = ServerConfiguration()
        try settings.applyEnvironment(["AASA_STORE_KEY_FILE": "/run/secrets/store.key"])
        #expect(ServerLaunch.refusal(settings)?.contains("--store-key-file applies to a PostgreSQL store") == true)
    }
}
