import COpenSSL

/// The roots a signer certificate must chain to: the system's store (OpenSSL's default
/// paths, which honour SSL_CERT_FILE and SSL_CERT_DIR, X509_STORE_set_default_paths(3)), or
/// the certificates of one PEM file only (`validate --cacert`, `probe --cacert`).
public enum TrustAnchors: Sendable, Hashable {
    case system
    case file(String)

    /// A new X509_STORE holding the roots, to be freed by the caller; nil when the file
    /// cannot be read.
    func makeStore() -> OpaquePointer? {
        guard let store = X509_STORE_new() else { return nil }
        let loaded: Bool
        switch self {
        case .system: loaded = X509_STORE_set_default_paths(store) == 1
        case .file(let path): loaded = X509_STORE_load_locations(store, path, nil) == 1
        }
        ERR_clear_error()
        guard loaded else {
            X509_STORE_free(store)
            return nil
        }
        return store
    }
}
