import COpenSSL
import COpenSSLShims

/// A certificate chain and its key in memory, handed to a handshake with
/// SSL_use_cert_and_key(3) in the ClientHello callback: the handshake keeps the context it
/// began on (the server's policy, its session cache, its callbacks), so a loaded certificate
/// costs its parsed certificates and key (a few KiB) and loading it no `SSL_CTX`, which in
/// OpenSSL 3 takes most of a millisecond to make and about 24 KiB to keep. OpenSSL counts
/// references to what it is given, so an entry the cache drops is freed once the last
/// handshake using it is done. Immutable, hence `@unchecked Sendable`.
package final class LoadedCertificate: @unchecked Sendable {
    private let leaf: OpaquePointer
    private let chain: OpaquePointer
    private let key: OpaquePointer
    /// The chain's and key's PEM bytes: what the cache counts beside the parsed objects.
    let fileBytes: Int

    /// Reads every certificate of `chainFile` (the leaf first) and the key of `keyFile`, and
    /// checks that they match.
    init(chainFile: String, keyFile: String, fileBytes: Int) throws(OpenSSLError) {
        ERR_clear_error()
        guard let bio = BIO_new_file(chainFile, "r") else {
            throw OpenSSLError.drain("cannot load the certificate chain \(chainFile)")
        }
        defer { BIO_free(bio) }
        guard let leaf = PEM_read_bio_X509(bio, nil, nil, nil) else {
            throw OpenSSLError.drain("cannot load the certificate chain \(chainFile)")
        }
        guard let chain = COpenSSLShims_sk_X509_new_null() else {
            X509_free(leaf)
            throw OpenSSLError.drain("cannot load the certificate chain \(chainFile)")
        }
        while let next = PEM_read_bio_X509(bio, nil, nil, nil) {
            if COpenSSLShims_sk_X509_push(chain, next) == 0 { X509_free(next) }
        }
        // The end of the file is PEM_R_NO_START_LINE: not an error.
        ERR_clear_error()
        guard let keyBIO = BIO_new_file(keyFile, "r") else {
            X509_free(leaf)
            COpenSSLShims_sk_X509_pop_free(chain)
            throw OpenSSLError.drain("cannot load the private key \(keyFile)")
        }
        defer { BIO_free(keyBIO) }
        guard let key = PEM_read_bio_PrivateKey(keyBIO, nil, nil, nil) else {
            X509_free(leaf)
            COpenSSLShims_sk_X509_pop_free(chain)
            throw OpenSSLError.drain("cannot load the private key \(keyFile)")
        }
        guard X509_check_private_key(leaf, key) == 1 else {
            X509_free(leaf)
            COpenSSLShims_sk_X509_pop_free(chain)
            EVP_PKEY_free(key)
            ERR_clear_error()
            throw OpenSSLError(
                operation: "the private key \(keyFile) does not match the certificate \(chainFile)", reasons: [])
        }
        self.leaf = leaf
        self.chain = chain
        self.key = key
        self.fileBytes = fileBytes
    }

    deinit {
        X509_free(leaf)
        COpenSSLShims_sk_X509_pop_free(chain)
        EVP_PKEY_free(key)
    }

    /// Gives the certificate, its chain and key to the handshake (references counted by
    /// OpenSSL); false when OpenSSL refuses them.
    func use(on ssl: OpaquePointer) -> Bool {
        // override 1: replaces the initial context's default certificate, if any. The key was
        // checked against the certificate when loaded; OpenSSL checks it again, a comparison of
        // public keys.
        SSL_use_cert_and_key(ssl, leaf, key, chain, 1) == 1
    }
}
