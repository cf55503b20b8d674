import AASATransport
import COpenSSL
import COpenSSLShims

extension TLSContext {
    /// The object identifier of id-pe-acmeIdentifier (RFC 8737 §6.1).
    static let acmeIdentifierOID = "1.3.6.1.5.5.7.1.31"

    /// The TLS-ALPN-01 validation certificate for `name` (RFC 8737 §3): self-signed, a
    /// subjectAltName of exactly that name, and the critical acmeIdentifier extension holding
    /// the SHA-256 digest of the key authorization as a DER OCTET STRING; served only with
    /// ALPN `acme-tls/1`.
    package static func acmeValidation(name: String, keyAuthorization: String) throws(OpenSSLError) -> TLSContext {
        ERR_clear_error()
        let key = try ECKey.generate()
        guard let certificate = X509_new() else { throw OpenSSLError.drain("X509_new") }
        defer { X509_free(certificate) }
        var serial = [UInt8](repeating: 0, count: 16)
        RAND_bytes(&serial, Int32(serial.count))
        serial[0] &= 0x7F
        guard X509_set_version(certificate, 2) == 1,
            let serialNumber = BN_bin2bn(serial, Int32(serial.count), nil)
        else { throw OpenSSLError.drain("building the validation certificate") }
        defer { BN_free(serialNumber) }
        guard BN_to_ASN1_INTEGER(serialNumber, X509_get_serialNumber(certificate)) != nil,
            X509_gmtime_adj(X509_getm_notBefore(certificate), -3600) != nil,
            X509_gmtime_adj(X509_getm_notAfter(certificate), 7 * 86_400) != nil,
            let subject = X509_get_subject_name(certificate),
            X509_NAME_add_entry_by_NID(subject, NID_commonName, MBSTRING_ASC, name, -1, -1, 0) == 1,
            X509_set_issuer_name(certificate, subject) == 1,
            X509_set_pubkey(certificate, key.key) == 1
        else { throw OpenSSLError.drain("building the validation certificate") }
        let alternativeNames = try CertificateRequest.subjectAlternativeNames([name])
        defer { X509_EXTENSION_free(alternativeNames) }
        // extnValue holds the DER of `Authorization ::= OCTET STRING (SIZE (32))`.
        let authorization: [UInt8] = [0x04, 0x20] + SHA256.digest(keyAuthorization)
        guard let object = OBJ_txt2obj(acmeIdentifierOID, 1) else { throw OpenSSLError.drain("OBJ_txt2obj") }
        defer { ASN1_OBJECT_free(object) }
        guard let value = ASN1_OCTET_STRING_new() else { throw OpenSSLError.drain("ASN1_OCTET_STRING_new") }
        defer { ASN1_OCTET_STRING_free(value) }
        guard ASN1_OCTET_STRING_set(value, authorization, Int32(authorization.count)) == 1,
            let identifier = X509_EXTENSION_create_by_OBJ(nil, object, 1, value)
        else { throw OpenSSLError.drain("building the acmeIdentifier extension") }
        defer { X509_EXTENSION_free(identifier) }
        guard X509_add_ext(certificate, alternativeNames, -1) == 1, X509_add_ext(certificate, identifier, -1) == 1,
            X509_sign(certificate, key.key, EVP_sha256()) > 0
        else { throw OpenSSLError.drain("signing the validation certificate") }
        return try TLSContext(certificate: certificate, key: key.key, protocol: .acmeTLS1)
    }
}
