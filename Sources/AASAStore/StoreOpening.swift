/// Opens the store `location` names. `keyFile` (`--store-key-file`) holds the 32-byte key
/// that encrypts private keys in a PostgreSQL store; for a folder it is refused, since a
/// folder keeps keys as 0600 files in 0700 folders and an encryption key beside them would
/// promise a protection it does not give.
public func openStore(_ location: StoreLocation, keyFile: String?) throws(StoreError) -> any SharedStore {
    switch location {
    case .folder(let path):
        if let keyFile {
            throw StoreError.refused(
                "--store-key-file \(keyFile) applies to a PostgreSQL store; a folder store keeps keys in 0600 files")
        }
        let store = FolderStore(folder: path)
        try store.prepare()
        return store
    case .postgres(let uri):
        let cipher = try keyFile.map { path throws(StoreError) in try StoreCipher(keyFile: path) }
        return try PostgresStore(uri: uri, cipher: cipher)
    }
}
