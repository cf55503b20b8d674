import AASASystem
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

    /// Reads every certificate of `chainFile` (the leaf first; the issuers' shared through
    /// `IssuerCertificates`) and the key of `keyFile` (an EC key by `ECPrivateKeyReader`, any
    /// other by OpenSSL's decoder), and checks that they match.
    package init(chainFile: String, keyFile: String, fileBytes: Int) throws(OpenSSLError) {
        ERR_clear_error()
        let (leaf, chain) = try Self.chain(chainFile)
        let read = Result { () throws(OpenSSLError) in try Self.key(keyFile) }
        guard case .success(let key) = read else {
            X509_free(leaf)
            COpenSSLShims_sk_X509_pop_free(chain)
            if case .failure(let problem) = read { throw problem }
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

    /// The leaf and the rest of the chain: every `CERTIFICATE` block of the file in order
    /// (other blocks skipped, as PEM_read_bio_X509(3) skips them), read as DER by PEM_read_bio(3)
    /// without parsing, so an issuer already known is not parsed again.
    private static func chain(_ chainFile: String) throws(OpenSSLError) -> (OpaquePointer, OpaquePointer) {
        try PEMFileBIO.with(chainFile, what: "the certificate chain") { bio throws(OpenSSLError) in
            try chain(bio, chainFile)
        }
    }

    private static func chain(_ bio: OpaquePointer, _ chainFile: String) throws(OpenSSLError) -> (
        OpaquePointer, OpaquePointer
    ) {
        guard let chain = COpenSSLShims_sk_X509_new_null() else {
            throw OpenSSLError.drain("cannot load the certificate chain \(chainFile)", passing: true)
        }
        var leaf: OpaquePointer?
        PEMFileBIO.eachBlock(bio) { label, der in
            guard PEMFileBIO.certificateLabels.contains(label) else { return true }
            if leaf == nil {
                var start = der.baseAddress
                leaf = d2i_X509(nil, &start, der.count)
                return leaf != nil
            }
            guard let issuer = IssuerCertificates.shared.certificate(der: Array(der)) else {
                return false  // as PEM_read_bio_X509 ends the chain at a certificate it cannot parse
            }
            if COpenSSLShims_sk_X509_push(chain, issuer) == 0 { X509_free(issuer) }
            return true
        }
        guard let leaf else {
            COpenSSLShims_sk_X509_pop_free(chain)
            throw OpenSSLError.drain("cannot load the certificate chain \(chainFile)")
        }
        // The end of the file is PEM_R_NO_START_LINE: not an error.
        ERR_clear_error()
        return (leaf, chain)
    }

    /// The private key of `keyFile`: an EC key read directly, anything else by OpenSSL.
    /// An encrypted key is refused, not asked about: with no callback OpenSSL's default one
    /// reads a passphrase from the terminal (pem_password_cb(3)), which would hold the loader.
    private static func key(_ keyFile: String) throws(OpenSSLError) -> OpaquePointer {
        // Read once: the EC reader and, for any other key, OpenSSL's decoder take the same bytes.
        var pem = try PEMFileBIO.read(keyFile, what: "the private key")
        defer { ECPrivateKeyReader.wipe(&pem) }
        if let key = ECPrivateKeyReader.key(pem: pem) { return key }
        let key = try PEMFileBIO.with(bytes: pem, path: keyFile, what: "the private key") { bio in
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil)
        }
        guard let key else { throw OpenSSLError.drain("cannot load the private key \(keyFile)") }
        return key
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

    /// The same for every handshake of `context` (the default certificate's context).
    func use(in context: OpaquePointer) -> Bool {
        SSL_CTX_use_cert_and_key(context, leaf, key, chain, 1) == 1
    }
}
