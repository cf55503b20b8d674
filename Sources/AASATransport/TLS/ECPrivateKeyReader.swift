import AASASystem
import COpenSSL
@preconcurrency import Glibc

/// An EC private key on P-256 or P-384 (what ACME, certbot and `make-dev-certs.sh` write) made
/// from its DER with EVP_PKEY_fromdata(3). OpenSSL 3's generic key decoder (OSSL_DECODER, behind
/// PEM_read_bio_PrivateKey) gathers and tries every provider's decoder for each key it reads:
/// about 360 µs of CPU per key on this project's machine, against about 20 µs here, most of what
/// a handshake for a name not loaded yet cost beyond a loaded one (docs/development.md, "Many
/// certificates"). The key made is the provider's own, signing as fast as a decoded one.
/// Anything else (RSA, Ed25519, an encrypted key, explicit curve parameters, a key without its
/// public point) returns nil and is left to OpenSSL's decoder.
package enum ECPrivateKeyReader {
    /// The key of a PEM file's `PRIVATE KEY` (PKCS #8, RFC 5208 §5) or `EC PRIVATE KEY` (SEC 1,
    /// RFC 5915 §3) block, as an `EVP_PKEY` the caller frees.
    package static func key(pem: [UInt8]) -> OpaquePointer? {
        if var der = PEMBlock.first("PRIVATE KEY", in: pem) {
            defer { wipe(&der) }
            return pkcs8(der)
        }
        if var der = PEMBlock.first("EC PRIVATE KEY", in: pem) {
            defer { wipe(&der) }
            return sec1(der, 0..<der.count, curve: nil)
        }
        return nil
    }

    /// Key bytes do not outlive their use in this process's heap (`Array.wipe`, explicit_bzero(3)).
    package static func wipe(_ bytes: inout [UInt8]) {
        bytes.wipe()
    }

    private static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    /// The named curves read here, by OID (RFC 5480 §2.1.1.1), with OpenSSL's group names.
    /// Static strings: OSSL_PARAM_BLD_push_utf8_string(3) keeps the pointer until the
    /// parameters are built, which a Swift string's temporary C string would not outlive.
    private static let curves: [(oid: [UInt8], name: StaticString)] = [
        ([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07], "prime256v1"),
        ([0x2B, 0x81, 0x04, 0x00, 0x22], "secp384r1"),
    ]

    private static func curve(_ bytes: [UInt8], _ oid: DERElement) -> StaticString? {
        guard oid.tag == 0x06 else { return nil }
        return curves.first { bytes[oid.content].elementsEqual($0.oid) }?.name
    }

    /// PrivateKeyInfo: version, AlgorithmIdentifier (id-ecPublicKey and the curve), then the
    /// SEC 1 key in an OCTET STRING.
    private static func pkcs8(_ bytes: [UInt8]) -> OpaquePointer? {
        guard let top = DERElement(bytes, at: 0, within: bytes.count), top.tag == 0x30,
            let fields = DERElement.children(bytes, top.content), fields.count >= 3,
            fields[0].tag == 0x02, fields[1].tag == 0x30, fields[2].tag == 0x04,
            let algorithm = DERElement.children(bytes, fields[1].content), algorithm.count == 2,
            algorithm[0].tag == 0x06, bytes[algorithm[0].content].elementsEqual(ecPublicKey),
            let name = curve(bytes, algorithm[1])
        else { return nil }
        return sec1(bytes, fields[2].content, curve: name)
    }

    /// ECPrivateKey: version 1, the private number, [0] the curve, [1] the public point.
    private static func sec1(
        _ bytes: [UInt8], _ range: Range<Int>, curve expected: StaticString?
    ) -> OpaquePointer? {
        guard let top = DERElement(bytes, at: range.lowerBound, within: range.upperBound), top.tag == 0x30,
            let fields = DERElement.children(bytes, top.content), fields.count >= 3,
            fields[0].tag == 0x02, bytes[fields[0].content].elementsEqual([1]), fields[1].tag == 0x04
        else { return nil }
        var name = expected
        var point: Range<Int>?
        for field in fields.dropFirst(2) {
            guard let inner = DERElement(bytes, at: field.content.lowerBound, within: field.content.upperBound)
            else { return nil }
            switch field.tag {
            case 0xA0:
                guard let named = curve(bytes, inner),
                    expected.map({ $0.utf8Start == named.utf8Start }) ?? true
                else { return nil }
                name = named
            case 0xA1:
                // A BIT STRING whose first octet (unused bits) is 0, then the uncompressed point.
                guard inner.tag == 0x03, inner.content.count > 1, bytes[inner.content.lowerBound] == 0 else {
                    return nil
                }
                point = inner.content.lowerBound + 1..<inner.content.upperBound
            default: return nil
            }
        }
        guard let name, let point else { return nil }
        return make(curve: name, secret: bytes[fields[1].content], point: bytes[point])
    }

    /// A static string as the C string OpenSSL keeps a pointer to.
    private static func text(_ string: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// EVP_PKEY_fromdata(3) with the group's name, the private number and the public point.
    private static func make(
        curve: StaticString, secret: ArraySlice<UInt8>, point: ArraySlice<UInt8>
    ) -> OpaquePointer? {
        guard let builder = OSSL_PARAM_BLD_new() else { return nil }
        defer { OSSL_PARAM_BLD_free(builder) }
        // BN_secure_new: the number is cleared when freed (BN_clear_free).
        guard let number = BN_secure_new() else { return nil }
        defer { BN_clear_free(number) }
        let converted = secret.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), number) }
        guard converted != nil,
            OSSL_PARAM_BLD_push_utf8_string(builder, text("group"), text(curve), 0) == 1,
            OSSL_PARAM_BLD_push_BN(builder, text("priv"), number) == 1,
            point.withUnsafeBytes({
                OSSL_PARAM_BLD_push_octet_string(builder, text("pub"), $0.baseAddress, $0.count)
            }) == 1,
            let parameters = OSSL_PARAM_BLD_to_param(builder)
        else { return nil }
        // Pushed from a secure BIGNUM, the private number is in the parameters' secure part,
        // which OSSL_PARAM_free clears (OSSL_PARAM_BLD_to_param(3)).
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        let selection =
            OSSL_KEYMGMT_SELECT_PRIVATE_KEY | OSSL_KEYMGMT_SELECT_PUBLIC_KEY
            | OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &key, selection, parameters) == 1
        else {
            ERR_clear_error()
            return nil
        }
        return key
    }
}
