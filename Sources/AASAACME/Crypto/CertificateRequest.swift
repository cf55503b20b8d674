import AASATransport
import COpenSSL
import COpenSSLShims

/// A PKCS #10 certificate signing request (RFC 2986) for a list of DNS names, as ACME's
/// finalize step takes it (RFC 8555 §7.4: DER, base64url in the `csr` field).
public enum CertificateRequest {
    /// The DER CSR: subject CN is the first name, every name a subjectAltName dNSName,
    /// signed with SHA-256 by `key`.
    public static func der(names: [String], key: ECKey) throws(OpenSSLError) -> [UInt8] {
        ERR_clear_error()
        guard let first = names.first, let request = X509_REQ_new() else {
            throw OpenSSLError(operation: "a certificate request needs at least one name", reasons: [])
        }
        defer { X509_REQ_free(request) }
        guard X509_REQ_set_version(request, 0) == 1,
            let subject = X509_REQ_get_subject_name(request),
            X509_NAME_add_entry_by_NID(subject, NID_commonName, MBSTRING_ASC, first, -1, -1, 0) == 1,
            X509_REQ_set_pubkey(request, key.key) == 1
        else { throw OpenSSLError.drain("building the certificate request") }
        guard let extensions = COpenSSLShims_sk_X509_EXTENSION_new_null() else {
            throw OpenSSLError.drain("sk_X509_EXTENSION_new_null")
        }
        defer { COpenSSLShims_sk_X509_EXTENSION_pop_free(extensions) }
        let alternativeNames = try Self.subjectAlternativeNames(names)
        guard COpenSSLShims_sk_X509_EXTENSION_push(extensions, alternativeNames) > 0 else {
            X509_EXTENSION_free(alternativeNames)
            throw OpenSSLError.drain("sk_X509_EXTENSION_push")
        }
        guard X509_REQ_add_extensions(request, extensions) == 1, X509_REQ_sign(request, key.key, EVP_sha256()) > 0
        else { throw OpenSSLError.drain("signing the certificate request") }
        return derBytes { i2d_X509_REQ(request, $0) }
    }

    /// A subjectAltName extension of DNS names (RFC 5280 §4.2.1.6), X509V3_EXT_conf_nid(3)'s syntax.
    package static func subjectAlternativeNames(_ names: [String]) throws(OpenSSLError) -> OpaquePointer {
        let value = names.map { "DNS:\($0)" }.joined(separator: ",")
        guard let extensionValue = X509V3_EXT_conf_nid(nil, nil, NID_subject_alt_name, value) else {
            throw OpenSSLError.drain("subjectAltName \(value)")
        }
        return extensionValue
    }

    /// Calls an i2d_* function twice, for the length and then the bytes (i2d_X509(3)).
    package static func derBytes(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8] {
        let length = encode(nil)
        guard length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = encode(&cursor)
        }
        return bytes
    }
}
