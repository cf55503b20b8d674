import COpenSSL
import COpenSSLShims
@preconcurrency import Glibc

/// One certificate and key made ready for handshakes: an `SSL_CTX` with the server's policy.
/// Immutable once built, and OpenSSL allows one context to serve many threads, hence
/// `@unchecked Sendable`; it is freed when the last reference goes.
public final class TLSContext: @unchecked Sendable {
    package let context: OpaquePointer

    /// TLS 1.2 suites: ECDHE key exchange with AEAD ciphers only (TLS 1.3 suites are all AEAD).
    package static let tls12Ciphers =
        "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
        + "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"

    /// TLS 1.3 suites, all three of Mozilla's intermediate profile, cheapest first: with the
    /// server's preference, a client that offers AES-256 first (OpenSSL's own default order)
    /// still gets AES-128-GCM with SHA-256 for its key schedule, a tenth fewer instructions
    /// per click than SHA-384 (docs/development.md, "The cost of a click"); a client that puts ChaCha20 first (one
    /// without AES instructions) keeps it (SSL_OP_PRIORITIZE_CHACHA).
    package static let tls13Ciphers = "TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_256_GCM_SHA384"

    /// Sessions kept for resumption: at most this many (each well under a KiB), for OpenSSL's
    /// default lifetime (300 s, SSL_CTX_set_timeout(3)). Bounded, since every full handshake adds one.
    package static let sessionCacheSize = 2048

    /// Key exchange groups of Mozilla's intermediate profile (wiki.mozilla.org/Security/Server_Side_TLS):
    /// no X448, P-521 or finite-field groups.
    package static let groups = "X25519:P-256:P-384"

    /// The protocol ALPN (RFC 7301) selects: HTTP/1.1 for serving, `acme-tls/1` on the
    /// validation certificates of TLS-ALPN-01 (RFC 8737 §3).
    package enum ApplicationProtocol: Sendable {
        case http11, acmeTLS1
    }

    /// A context with the server's policy and no certificate yet: the one a handshake starts
    /// on when there is no default certificate, and the base of the others.
    package init(protocol applicationProtocol: ApplicationProtocol = .http11) throws(OpenSSLError) {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw OpenSSLError.drain("SSL_CTX_new") }
        self.context = context
        // TLS 1.2 and 1.3 only (Mozilla's intermediate profile).
        COpenSSLShims_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
        COpenSSLShims_SSL_CTX_set_max_proto_version(context, TLS1_3_VERSION)
        SSL_CTX_set_options(
            context,
            COpenSSLShims_SSL_OP_NO_RENEGOTIATION | COpenSSLShims_SSL_OP_CIPHER_SERVER_PREFERENCE
                | COpenSSLShims_SSL_OP_PRIORITIZE_CHACHA | COpenSSLShims_SSL_OP_NO_COMPRESSION
                | COpenSSLShims_SSL_OP_IGNORE_UNEXPECTED_EOF | COpenSSLShims_SSL_OP_NO_TICKET)
        // Writes retry with the same bytes but maybe another address (Swift arrays move);
        // partial writes let a large response go out as the socket allows. Buffers are kept
        // between requests (SSL_MODE_RELEASE_BUFFERS frees and allocates about 34 KiB per
        // request, 6 % of a keep-alive request's instructions); the loop gives an idle
        // connection's back with `TLSSession.releaseBuffers()`.
        COpenSSLShims_SSL_CTX_set_mode(
            context,
            COpenSSLShims_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | COpenSSLShims_SSL_MODE_ENABLE_PARTIAL_WRITE)
        // Each read of the socket takes all it holds, up to a buffer, not a record header then
        // its body (3 reads per request instead of 1); TLSSession.drained relies on it.
        COpenSSLShims_SSL_CTX_set_read_ahead(context, 1)
        // Resumption from the server's session cache only (SSL_OP_NO_TICKET): TLS 1.2 by session
        // ID, TLS 1.3 by one stateful ticket per handshake, which names the cached session
        // rather than carrying it serialized and encrypted. A link's click rarely comes back
        // within a session's lifetime, so the encrypted ticket's cost (0.12 M instructions per
        // connection: docs/development.md, "The cost of a click") is paid for nothing; the reference costs a cache
        // insertion. Clients that do come back still resume (a TLS 1.3 ticket once, RFC 8446
        // §C.4), on the same process: a restart or a reload of the certificates starts a new cache.
        SSL_CTX_set_num_tickets(context, 1)
        COpenSSLShims_SSL_CTX_set_session_cache_mode(context, COpenSSLShims_SSL_SESS_CACHE_SERVER)
        _ = COpenSSLShims_SSL_CTX_sess_set_cache_size(context, Self.sessionCacheSize)
        SSL_CTX_set_session_id_context(context, "aasa-server", 11)
        guard SSL_CTX_set_ciphersuites(context, Self.tls13Ciphers) == 1 else {
            throw OpenSSLError.drain("SSL_CTX_set_ciphersuites")
        }
        guard SSL_CTX_set_cipher_list(context, Self.tls12Ciphers) == 1 else {
            throw OpenSSLError.drain("SSL_CTX_set_cipher_list")
        }
        guard COpenSSLShims_SSL_CTX_set1_groups_list(context, Self.groups) == 1 else {
            throw OpenSSLError.drain("SSL_CTX_set1_groups_list")
        }
        SSL_CTX_set_alpn_select_cb(
            context, selectProtocol, applicationProtocol == .http11 ? nil : UnsafeMutableRawPointer(alpnACMETLS1))
    }

    /// Loads a PEM certificate chain and its private key; fails if they do not match. Read as
    /// a handshake's certificate is (`LoadedCertificate`: our own bounded, non-blocking read, so
    /// a FIFO in a file's place cannot hang a load; an encrypted key refused, never asked about).
    package convenience init(chainFile: String, keyFile: String) throws(OpenSSLError) {
        try self.init()
        let loaded = try LoadedCertificate(chainFile: chainFile, keyFile: keyFile, fileBytes: 0)
        guard loaded.use(in: context) else {
            throw OpenSSLError.drain("cannot use the certificate chain \(chainFile)")
        }
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// A certificate and its key (an `EVP_PKEY`) in memory: the validation certificates of TLS-ALPN-01,
    /// which ACME builds.
    package convenience init(
        certificate: OpaquePointer, key: OpaquePointer, protocol applicationProtocol: ApplicationProtocol
    ) throws(OpenSSLError) {
        try self.init(protocol: applicationProtocol)
        guard SSL_CTX_use_certificate(context, certificate) == 1, SSL_CTX_use_PrivateKey(context, key) == 1 else {
            throw OpenSSLError.drain("cannot use the certificate")
        }
    }

    /// The leaf certificate (owned by the context).
    package var certificate: OpaquePointer? { SSL_CTX_get0_certificate(context) }

    /// The leaf certificate as PEM.
    package var certificatePEM: [UInt8] {
        guard let certificate else { return [] }
        return MemoryBIO.bytes { PEM_write_bio_X509($0, certificate) }
    }
}

/// ALPN (RFC 7301): we speak http/1.1 only; a client offering nothing we speak gets no ALPN
/// answer rather than a failed handshake. A validation context speaks `acme-tls/1` only.
// Written once at first use and only read afterwards.
nonisolated(unsafe) private let alpnHTTP11: UnsafeMutablePointer<UInt8> = {
    let bytes: [UInt8] = [8] + Array("http/1.1".utf8)
    let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
    pointer.initialize(from: bytes, count: bytes.count)
    return pointer
}()

nonisolated(unsafe) private let alpnACMETLS1: UnsafeMutablePointer<UInt8> = {
    let bytes: [UInt8] = [10] + Array("acme-tls/1".utf8)
    let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
    pointer.initialize(from: bytes, count: bytes.count)
    return pointer
}()

private func selectProtocol(
    _ ssl: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
    _ outLength: UnsafeMutablePointer<UInt8>?,
    _ offered: UnsafePointer<UInt8>?, _ offeredLength: UInt32, _ argument: UnsafeMutableRawPointer?
) -> Int32 {
    var selected: UnsafeMutablePointer<UInt8>?
    var selectedLength: UInt8 = 0
    let ours = argument.map { $0.assumingMemoryBound(to: UInt8.self) } ?? alpnHTTP11
    let result = SSL_select_next_proto(&selected, &selectedLength, ours, UInt32(ours[0]) + 1, offered, offeredLength)
    guard result == OPENSSL_NPN_NEGOTIATED, let selected else { return SSL_TLSEXT_ERR_NOACK }
    // `selected` points into our static buffer or OpenSSL's copy of the offer, never into
    // temporary Swift memory (SSL_CTX_set_alpn_select_cb(3): the memory must outlive the callback).
    out?.pointee = UnsafePointer(selected)
    outLength?.pointee = selectedLength
    return SSL_TLSEXT_ERR_OK
}
