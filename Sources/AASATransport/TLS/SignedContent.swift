import COpenSSL

/// Reading what OpenSSL can read for `check-app`: the content of a CMS-signed file (a
/// provisioning profile is a property list signed as CMS SignedData, RFC 5652 §5) and the
/// SHA-256 fingerprint of a certificate, as Digital Asset Links writes it.
public enum SignedContent {
    /// The encapsulated content of DER or PEM CMS SignedData; the signature is not verified
    /// (the content is read, not trusted). Nil when the bytes are not CMS.
    public static func cmsContent(_ bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBufferPointer { buffer -> [UInt8]? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(clamping: buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            ERR_clear_error()
            var cms = d2i_CMS_bio(bio, nil)
            if cms == nil {
                _ = BIO_ctrl(bio, BIO_CTRL_RESET, 0, nil)
                cms = PEM_read_bio_CMS(bio, nil, nil, nil)
            }
            ERR_clear_error()
            guard let cms else { return nil }
            defer { CMS_ContentInfo_free(cms) }
            guard let content = CMS_get0_content(cms)?.pointee, let data = ASN1_STRING_get0_data(content) else {
                return nil
            }
            return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(content))))
        }
    }

    /// `14:6D:E9:…` (32 upper-case hex bytes with colons) of a PEM or DER certificate.
    public static func sha256Fingerprint(ofCertificate bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { buffer -> String? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(clamping: buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            ERR_clear_error()
            var certificate = PEM_read_bio_X509(bio, nil, nil, nil)
            if certificate == nil {
                _ = BIO_ctrl(bio, BIO_CTRL_RESET, 0, nil)
                certificate = d2i_X509_bio(bio, nil)
            }
            ERR_clear_error()
            guard let certificate else { return nil }
            defer { X509_free(certificate) }
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1 else { return nil }
            return digest.prefix(Int(length)).map { byte in
                let hex = String(byte, radix: 16, uppercase: true)
                return hex.count == 1 ? "0" + hex : hex
            }.joined(separator: ":")
        }
    }
}
