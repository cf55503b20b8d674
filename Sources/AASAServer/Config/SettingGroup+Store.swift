import AASAStore

/// What replicas share (docs/acme.md, "Several replicas, one store"): the store's place and
/// the key that encrypts private keys in a PostgreSQL store.
extension SettingGroup {
    static let storeSettings: [Setting] = [
        Setting(
            "store", \.store, location, valueName: "dir|postgres://…",
            example: "postgres://aasa@db.internal/aasa?sslmode=verify-full",
            help: "Where replicas share certificates, challenges, locks and watch results: a folder, or a "
                + "PostgreSQL URI as libpq reads it (sslmode, passfile, PGPASSWORD apply)",
            defaultText: "the certificates folder's acme/"),
        Setting(
            "storeKeyFile", \.storeKeyFile, .file, valueName: "file", example: "/etc/aasa/store.key",
            help: "A file holding the 32-byte key (raw, hex or base64) that encrypts private keys in a PostgreSQL "
                + "store (AES-256-GCM); refused with a folder store",
            // A folder store keeps private keys as 0600 files: an encryption key would promise a
            // protection it does not give (docs/acme.md, "Several replicas, one store").
            refuses: { settings in
                guard settings.storeKeyFile != nil, case .folder = settings.storeLocation else { return nil }
                return "--store-key-file applies to a PostgreSQL store (--store postgres://…); a folder store keeps "
                    + "private keys in 0600 files"
            }),
    ]

    /// A folder (relative in a config file to the file's folder) or a PostgreSQL URI.
    private static var location: SettingValue<StoreLocation?> {
        var value = SettingValue<StoreLocation?>(
            read: { text throws(ServerConfiguration.Problem) in
                if text.isEmpty { return nil }
                return StoreLocation(parsing: text)
            },
            // Without the password: help and the start-up report show it.
            show: { $0?.description ?? "folder acme/ under --certs" }, cleared: "")
        value.isPath = true
        return value
    }
}
