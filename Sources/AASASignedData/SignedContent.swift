import AssociationKit
import COpenSSL

/// Reading what OpenSSL can read: the content of a CMS-signed file (a provisioning profile is
/// a property list signed as CMS SignedData, RFC 5652 §5, and so is an iOS 8 association
/// file) and the SHA-256 fingerprint of a certificate, as Digital Asset Links writes it.
public enum SignedContent {
    /// The encapsulated content of DER or PEM CMS SignedData; the signature is not verified
    /// (the content is read, not trusted). Nil when the bytes are not CMS.
    public static func cmsContent(_ bytes: [UInt8]) -> [UInt8]? {
        withCMS(bytes) { content(of: $0) } ?? nil
    }

    /// The JSON `bytes` mean for a reader that compares and judges nothing (the CDN copies):
    /// a signed file's content, unverified, else the bytes as they are.
    public static func json(_ bytes: [UInt8]) -> [UInt8] {
        guard SignedEnvelope.encoding(of: bytes) != nil, let content = cmsContent(bytes) else { return bytes }
        return content
    }

    /// `body` with the parsed CMS of DER or PEM `bytes`, freed after; nil when they are not CMS.
    static func withCMS<Result>(_ bytes: [UInt8], _ body: (OpaquePointer) -> Result) -> Result? {
        bytes.withUnsafeBufferPointer { buffer -> Result? in
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
            return body(cms)
        }
    }

    /// The encapsulated content of parsed CMS, nil when it has none (a detached signature).
    static func content(of cms: OpaquePointer) -> [UInt8]? {
        guard let content = CMS_get0_content(cms)?.pointee, let data = ASN1_STRING_get0_data(content) else {
            return nil
        }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(content))))
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
