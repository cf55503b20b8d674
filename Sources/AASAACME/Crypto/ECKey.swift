import AASATransport
import AssociationKit
import COpenSSL

/// An ECDSA P-256 private key (EVP_PKEY), as ACME uses for accounts and certificates
/// (RFC 8555 §6.2: ES256). Keys are immutable once made and OpenSSL allows one to sign on
/// many threads, hence `@unchecked Sendable`.
public final class ECKey: @unchecked Sendable {
    package let key: OpaquePointer

    private init(key: OpaquePointer) {
        self.key = key
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// A fresh P-256 key (EVP_PKEY_keygen(3)).
    public static func generate() throws(OpenSSLError) -> ECKey {
        ERR_clear_error()
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else {
            throw OpenSSLError.drain("EVP_PKEY_CTX_new_id")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
            EVP_PKEY_keygen(context, &key) == 1, let key
        else { throw OpenSSLError.drain("generating a P-256 key") }
        return ECKey(key: key)
    }

    /// A PEM private key (PKCS #8 or SEC 1); only P-256 is accepted.
    public convenience init(pem: [UInt8]) throws(OpenSSLError) {
        ERR_clear_error()
        let bio = pem.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else {
            throw OpenSSLError.drain("not a PEM private key")
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
            EVP_PKEY_free(key)
            throw OpenSSLError(operation: "the key is not an ECDSA P-256 key", reasons: [])
        }
        self.init(key: key)
    }

    /// The key as unencrypted PKCS #8 PEM, for a file of mode 0600.
    public func pem() -> [UInt8] {
        MemoryBIO.bytes { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
    }

    /// The public point's coordinates, 32 bytes each (SEC 1 §2.3.3 uncompressed form, 0x04 || X || Y).
    public var publicCoordinates: (x: [UInt8], y: [UInt8]) {
        var encoded: UnsafeMutablePointer<UInt8>?
        let count = EVP_PKEY_get1_encoded_public_key(key, &encoded)
        defer { CRYPTO_free(encoded, #fileID, #line) }
        guard count == 65, let encoded else { return ([], []) }
        let point = Array(UnsafeBufferPointer(start: encoded, count: count))
        return (Array(point[1..<33]), Array(point[33..<65]))
    }

    /// The public key as a JWK (RFC 7517) with its members in the order RFC 7638 §3.3 hashes.
    public var jwk: String { JSONWriter().text(jwkNode) }

    /// The public JWK with its required members in lexicographic order, as the thumbprint's
    /// canonical form needs them (RFC 7638 §3.3).
    public var jwkNode: JSONNode {
        let (x, y) = publicCoordinates
        return .object([
            ("crv", .string("P-256")), ("kty", .string("EC")), ("x", .string(Base64URL.encode(x))),
            ("y", .string(Base64URL.encode(y))),
        ])
    }

    /// The JWK thumbprint (RFC 7638 §3): base64url(SHA-256(canonical JWK)).
    public var thumbprint: String { Base64URL.encode(SHA256.digest(jwk)) }

    /// An ES256 signature of `message` (RFC 7518 §3.4): r and s, 32 big-endian bytes each,
    /// not OpenSSL's DER `ECDSA-Sig-Value`.
    public func signES256(_ message: [UInt8]) throws(OpenSSLError) -> [UInt8] {
        ERR_clear_error()
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLError.drain("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
            message.withUnsafeBytes({ EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }) == 1
        else { throw OpenSSLError.drain("ES256 signing") }
        var der = [UInt8](repeating: 0, count: length)
        guard message.withUnsafeBytes({ EVP_DigestSign(context, &der, &length, $0.baseAddress, $0.count) }) == 1 else {
            throw OpenSSLError.drain("ES256 signing")
        }
        let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var start = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &start, length)
        }
        guard let signature else { throw OpenSSLError.drain("decoding the ECDSA signature") }
        defer { ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: 64)
        guard let r = ECDSA_SIG_get0_r(signature), let s = ECDSA_SIG_get0_s(signature),
            raw.withUnsafeMutableBufferPointer({ buffer in
                BN_bn2binpad(r, buffer.baseAddress, 32) == 32
                    && BN_bn2binpad(s, buffer.baseAddress?.advanced(by: 32), 32) == 32
            })
        else { throw OpenSSLError.drain("encoding the ES256 signature") }
        return raw
    }
}
