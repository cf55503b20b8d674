import AssociationKit
import COpenSSL
import COpenSSLShims
import Glibc

/// The fields of an X509 certificate that a signed file's checks and the TLS certificate
/// store read: one reader of names and dates for both.
package enum SignerFields {
    package static func read(_ certificate: OpaquePointer) -> SignerCertificate {
        let subject = X509_get_subject_name(certificate)
        return SignerCertificate(
            subject: commonName(subject) ?? oneLine(subject), names: dnsNames(certificate),
            notBefore: seconds(X509_get0_notBefore(certificate)), notAfter: seconds(X509_get0_notAfter(certificate)))
    }

    /// subjectAltName DNS entries, lower-cased; the subject CN only when there are none
    /// (RFC 6125 §6.4.4).
    package static func dnsNames(_ certificate: OpaquePointer) -> [String] {
        var names: [String] = []
        if let alternatives = COpenSSLShims_X509_get_subject_alt_names(certificate) {
            let list = OpaquePointer(alternatives)
            for index in 0..<COpenSSLShims_sk_GENERAL_NAME_num(list) {
                guard let entry = COpenSSLShims_sk_GENERAL_NAME_value(list, index), entry.pointee.type == GEN_DNS,
                    let data = ASN1_STRING_get0_data(entry.pointee.d.dNSName)
                else { continue }
                let length = Int(ASN1_STRING_length(entry.pointee.d.dNSName))
                names.append(
                    String(decoding: UnsafeBufferPointer(start: data, count: length), as: UTF8.self).lowercased())
            }
            COpenSSLShims_GENERAL_NAMES_free(list)
        }
        if names.isEmpty, let name = commonName(X509_get_subject_name(certificate)) {
            names.append(name.lowercased())
        }
        return names
    }

    package static func commonName(_ name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        guard X509_NAME_get_text_by_NID(name, NID_commonName, &buffer, Int32(buffer.count)) > 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package static func oneLine(_ name: OpaquePointer?) -> String {
        guard let name, let line = X509_NAME_oneline(name, nil, 0) else { return "no subject" }
        defer { CRYPTO_free(line, #fileID, #line) }
        return String(cString: line)
    }

    /// Seconds since the epoch of an ASN1_TIME (0 when it cannot be read).
    package static func seconds(_ value: UnsafePointer<ASN1_TIME>?) -> Int {
        var parts = tm()
        guard let value, ASN1_TIME_to_tm(value, &parts) == 1 else { return 0 }
        return Int(timegm(&parts))
    }
}
