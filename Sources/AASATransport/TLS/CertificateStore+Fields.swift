import AASASignedData
import COpenSSL

/// What the index reads of a leaf certificate.
extension CertificateStore {
    /// subjectAltName DNS entries, lower-cased; the subject CN only when there are none.
    package static func dnsNames(_ certificate: OpaquePointer) -> [String] {
        SignerFields.dnsNames(certificate)
    }

    package static func expiry(_ certificate: OpaquePointer) -> Int {
        SignerFields.seconds(X509_get0_notAfter(certificate))
    }

    /// The serial's DER content octets: big-endian, a zero byte first when the high bit is
    /// set (X.690 §8.3), as RFC 9773 §4.1 encodes it.
    static func serialNumber(_ certificate: OpaquePointer) -> [UInt8] {
        guard let serial = X509_get0_serialNumber(certificate), let number = ASN1_INTEGER_to_BN(serial, nil) else {
            return []
        }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
        _ = BN_bn2bin(number, &bytes)
        if bytes.first.map({ $0 >= 0x80 }) ?? true { bytes.insert(0, at: 0) }
        return bytes
    }

    /// The keyIdentifier of the authority key identifier extension (RFC 5280 §4.2.1.1).
    static func authorityKeyID(_ certificate: OpaquePointer) -> [UInt8]? {
        guard let identifier = X509_get0_authority_key_id(certificate), let data = ASN1_STRING_get0_data(identifier)
        else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(identifier))))
    }

    static func issuerName(_ certificate: OpaquePointer) -> String {
        guard let issuer = X509_get_issuer_name(certificate) else { return "" }
        return SignerFields.commonName(issuer) ?? SignerFields.oneLine(issuer)
    }
}
