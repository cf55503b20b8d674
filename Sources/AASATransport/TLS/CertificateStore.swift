import AASASites
import AssociationKit
import COpenSSL
import COpenSSLShims
import Foundation
@preconcurrency import Glibc

/// Every certificate of a certificates directory, indexed by the DNS names inside it, and
/// the choice SNI makes among them: the exact name, else a wildcard for the name's parent
/// domain (one label, RFC 6125 §6.4.3), else the default certificate.
public final class CertificateStore: @unchecked Sendable {
    public struct Certificate: Sendable {
        /// The folder holding the pair.
        public let folder: String
        public let names: [String]
        /// Seconds since the epoch.
        public let notAfter: Int
        package let context: TLSContext
    }

    public struct LoadResult: Sendable {
        public let store: CertificateStore?
        public let problems: [LoadProblem]
    }

    public let certificates: [Certificate]
    public let defaultCertificate: Certificate
    private let exact: [String: TLSContext]
    private let wildcards: [String: TLSContext]

    private init(certificates: [Certificate], defaultCertificate: Certificate) {
        self.certificates = certificates
        self.defaultCertificate = defaultCertificate
        var exact: [String: TLSContext] = [:]
        var wildcards: [String: TLSContext] = [:]
        for certificate in certificates {
            for name in certificate.names {
                if name.hasPrefix("*.") {
                    if wildcards[String(name.dropFirst(2))] == nil {
                        wildcards[String(name.dropFirst(2))] = certificate.context
                    }
                } else if exact[name] == nil {
                    exact[name] = certificate.context
                }
            }
        }
        self.exact = exact
        self.wildcards = wildcards
        // The handshake starts on the default context; its SNI callback may switch.
        let argument = Unmanaged.passUnretained(self).toOpaque()
        for certificate in certificates {
            COpenSSLShims_SSL_CTX_set_tlsext_servername_callback(certificate.context.context, chooseCertificate)
            COpenSSLShims_SSL_CTX_set_tlsext_servername_arg(certificate.context.context, argument)
        }
    }

    /// Exact before wildcard; nil when no certificate names the host.
    package func context(forServerName name: String) -> TLSContext? {
        if let context = exact[name] { return context }
        guard let dot = name.firstIndex(of: ".") else { return nil }
        return wildcards[String(name[name.index(after: dot)...])]
    }

    /// Loads every certificate and key pair below `directory` (`pairs(below:)`): certbot's
    /// layout and Kubernetes TLS Secrets. An unreadable file, a key that does not match, or an expired
    /// certificate is an error; expiry within 14 days is a warning.
    public static func load(directory: String, defaultName: String? = nil, now: Int = Int(time(nil))) -> LoadResult {
        var problems: [LoadProblem] = []
        var certificates: [Certificate] = []
        for files in pairs(below: directory) {
            let (folder, chain, key) = (files.folder, files.chain, files.key)
            do {
                let context = try TLSContext(chainFile: chain, keyFile: key)
                guard let leaf = context.certificate else {
                    throw OpenSSLError(operation: "no certificate in \(chain)", reasons: [])
                }
                let notAfter = expiry(leaf)
                let names = dnsNames(leaf)
                if notAfter <= now {
                    problems.append(
                        LoadProblem(
                            chain, .certificateExpired, .error,
                            "the certificate expired on \(HTTPDate.format(notAfter)); renew it"))
                    continue
                }
                if notAfter - now < 14 * 86_400 {
                    problems.append(
                        LoadProblem(
                            chain, .certificateExpiring, .warning,
                            "the certificate expires on \(HTTPDate.format(notAfter)), in "
                                + "\(Self.daysLeft(notAfter, now: now)) days"
                        ))
                }
                if names.isEmpty {
                    problems.append(
                        LoadProblem(
                            chain, .certificateWithoutNames, .warning,
                            "the certificate names no DNS host; only clients without SNI get it"))
                }
                certificates.append(Certificate(folder: folder, names: names, notAfter: notAfter, context: context))
            } catch {
                problems.append(LoadProblem(folder, .certificateUnusable, .error, "\(error)"))
            }
        }
        if problems.hasErrors { return LoadResult(store: nil, problems: problems) }
        guard !certificates.isEmpty else {
            return LoadResult(
                store: nil,
                problems: problems + [
                    LoadProblem(
                        directory, .noCertificates, .error,
                        "no certificate pairs (fullchain.pem or cert.pem with privkey.pem, or tls.crt with tls.key) "
                            + "found"
                    )
                ])
        }
        var fallback = certificates[0]
        if let defaultName {
            guard
                let chosen = certificates.first(where: {
                    $0.names.contains(defaultName.lowercased())
                        || ($0.folder as NSString).lastPathComponent == defaultName
                })
            else {
                return LoadResult(
                    store: nil,
                    problems: problems + [
                        LoadProblem(
                            directory, .noDefaultCertificate, .error,
                            "no certificate for the default name \(defaultName)")
                    ])
            }
            fallback = chosen
        }
        return LoadResult(
            store: CertificateStore(certificates: certificates, defaultCertificate: fallback), problems: problems)
    }

    /// A certificate chain and its key, as found on disk.
    package struct Files {
        package let folder: String
        package let chain: String
        package let key: String
    }

    /// The names a pair may have: certbot's (`fullchain.pem` or `cert.pem` with
    /// `privkey.pem`) and a Kubernetes TLS Secret's (`tls.crt` with `tls.key`, what
    /// cert-manager writes).
    package static let layouts: [(chains: [String], key: String)] = [
        (["fullchain.pem", "cert.pem"], "privkey.pem"), (["tls.crt"], "tls.key"),
    ]

    /// Every pair in `directory` and the folders below it. Hidden entries are skipped: a
    /// Secret mounted as a folder holds its files through `..data`, a link to a hidden
    /// timestamped folder, which would otherwise load as a second copy of each certificate.
    /// A pair reached twice (through links) counts once, by the chain's resolved path.
    package static func pairs(below directory: String) -> [Files] {
        let fileManager = FileManager.default
        let root = URL(fileURLWithPath: directory)
        var folders = [root]
        let keys: [URLResourceKey] = [.isDirectoryKey, .isSymbolicLinkKey]
        if let enumerator = fileManager.enumerator(
            at: root, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        {
            for case let url as URL in enumerator {
                var isDirectory: ObjCBool = false
                // A link to a folder (certs/example.com -> /etc/letsencrypt/live/example.com) counts too.
                if fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                    folders.append(url)
                }
            }
        }
        var seen: Set<String> = []
        var pairs: [Files] = []
        for folder in folders.map({ ($0.path as NSString).standardizingPath }).sorted() {
            for layout in layouts {
                let key = (folder as NSString).appendingPathComponent(layout.key)
                guard fileManager.fileExists(atPath: key),
                    let chain = layout.chains.map({ (folder as NSString).appendingPathComponent($0) }).first(
                        where: fileManager.fileExists)
                else { continue }
                guard seen.insert(URL(fileURLWithPath: chain).resolvingSymlinksInPath().path).inserted else { continue }
                pairs.append(Files(folder: folder, chain: chain, key: key))
            }
        }
        return pairs
    }

    /// subjectAltName DNS entries, lower-cased; the subject CN only when there are none.
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
        if names.isEmpty, let subject = X509_get_subject_name(certificate) {
            var buffer = [CChar](repeating: 0, count: 256)
            if X509_NAME_get_text_by_NID(subject, NID_commonName, &buffer, Int32(buffer.count)) > 0 {
                names.append(
                    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                        .lowercased())
            }
        }
        return names
    }

    /// Days until `notAfter`, to the nearest day: the one count the log and the status page
    /// share. Rounding to the nearest keeps a certificate issued for whole days at the same
    /// count from start-up to a page seconds later (rounding down would say 5, then 4).
    public static func daysLeft(_ notAfter: Int, now: Int = Int(time(nil))) -> Int {
        (notAfter - now + 43_200) / 86_400
    }

    package static func expiry(_ certificate: OpaquePointer) -> Int {
        var parts = tm()
        guard let notAfter = X509_get0_notAfter(certificate), ASN1_TIME_to_tm(notAfter, &parts) == 1 else { return 0 }
        return Int(timegm(&parts))
    }
}

/// The SNI callback (SSL_CTX_set_tlsext_servername_callback(3)): switch the connection to
/// the certificate for the requested name. Returns SSL_TLSEXT_ERR_OK (0), not 1, which
/// would be a warning alert (SSL_CTX_set_tlsext_servername_callback(3)).
private func chooseCertificate(
    _ ssl: OpaquePointer?, _ alert: UnsafeMutablePointer<Int32>?, _ argument: UnsafeMutableRawPointer?
) -> Int32 {
    guard let ssl, let argument, let raw = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) else {
        return SSL_TLSEXT_ERR_OK
    }
    let store = Unmanaged<CertificateStore>.fromOpaque(argument).takeUnretainedValue()
    var name = String(decoding: UnsafeRawBufferPointer(start: raw, count: strlen(raw)), as: UTF8.self).lowercased()
    if name.hasSuffix(".") { name.removeLast() }
    if let context = store.context(forServerName: name) { SSL_set_SSL_CTX(ssl, context.context) }
    return SSL_TLSEXT_ERR_OK
}
