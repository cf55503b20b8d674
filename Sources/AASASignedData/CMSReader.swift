import AssociationKit
import COpenSSL
import COpenSSLShims

/// Opens a CMS-signed association file (RFC 5652 §5; docs/association-files.md, "Signed
/// files") with OpenSSL and verifies it in two steps, so each failure has its own code: the
/// signature over the content with the signer certificate the file carries (CMS_verify(3)
/// with CMS_NO_SIGNER_CERT_VERIFY), then the signer's chain to `trust` with the dates left to
/// the validator (X509_verify_cert(3) with X509_V_FLAG_NO_CHECK_TIME). The signer's key usage
/// is not checked: Apple's instructions sign with the site's TLS certificate, whose extended
/// key usage is serverAuth, not emailProtection.
public enum CMSReader {
    /// A reader for the pure layers, verifying against `trust`.
    public static func reader(trusting trust: TrustAnchors) -> SignedFileReader {
        SignedFileReader { open($0, trusting: trust) }
    }

    /// The envelope of DER or PEM CMS SignedData; nil when the bytes are not that.
    public static func open(_ bytes: [UInt8], trusting trust: TrustAnchors) -> SignedEnvelope? {
        guard let encoding = SignedEnvelope.encoding(of: bytes) else { return nil }
        let opened = SignedContent.withCMS(bytes) { cms -> SignedEnvelope? in
            guard OBJ_obj2nid(CMS_get0_type(cms)) == NID_pkcs7_signed else { return nil }
            let content = SignedContent.content(of: cms)
            let certificates = CMS_get1_certs(cms)
            defer { if let certificates { COpenSSLShims_sk_X509_pop_free(certificates) } }
            var signature = SignedEnvelope.Signature.failed("the signature is detached")
            if content != nil {
                ERR_clear_error()
                let flags = UInt32(CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY)
                signature = CMS_verify(cms, nil, nil, nil, nil, flags) == 1 ? .verified : .failed(lastError())
            }
            ERR_clear_error()
            guard let signer = signerCertificate(of: cms) else {
                return SignedEnvelope(
                    encoding: encoding, content: content, signature: signature,
                    trust: .untrusted("the file carries no signer certificate"), signer: nil)
            }
            return SignedEnvelope(
                encoding: encoding, content: content, signature: signature,
                trust: chainTrust(signer, intermediates: certificates, trust: trust),
                signer: SignerFields.read(signer))
        }
        return opened ?? nil
    }

    /// The first signer's certificate among those the file carries (RFC 5652 §5.3).
    private static func signerCertificate(of cms: OpaquePointer) -> OpaquePointer? {
        _ = CMS_set1_signers_certs(cms, nil, 0)
        ERR_clear_error()
        guard let infos = CMS_get0_SignerInfos(cms), OPENSSL_sk_num(infos) > 0,
            let info = OPENSSL_sk_value(infos, 0)
        else { return nil }
        var signer: OpaquePointer?
        CMS_SignerInfo_get0_algs(OpaquePointer(info), nil, &signer, nil, nil)
        return signer
    }

    private static func chainTrust(
        _ signer: OpaquePointer, intermediates: OpaquePointer?, trust: TrustAnchors
    ) -> SignedEnvelope.Trust {
        guard let store = trust.makeStore() else {
            return .untrusted("the trusted certificates cannot be read")
        }
        defer { X509_STORE_free(store) }
        guard let context = X509_STORE_CTX_new() else { return .untrusted("out of memory") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, signer, intermediates) == 1 else {
            return .untrusted(lastError())
        }
        X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(context), UInt(X509_V_FLAG_NO_CHECK_TIME))
        if X509_verify_cert(context) == 1 { return .trusted }
        ERR_clear_error()
        return .untrusted(String(cString: X509_verify_cert_error_string(Int(X509_STORE_CTX_get_error(context)))))
    }

    /// OpenSSL's reason for the last failure, in its words.
    private static func lastError() -> String {
        let code = ERR_peek_last_error()
        ERR_clear_error()
        guard code != 0, let reason = ERR_reason_error_string(code) else { return "unknown reason" }
        return String(cString: reason)
    }
}
