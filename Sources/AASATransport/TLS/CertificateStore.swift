import AASASignedData
import AASASystem
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
        public let notBefore: Int
        public let notAfter: Int
        /// The issuer's common name (or its whole name when it has none).
        public let issuer: String
        /// The serial number's DER content octets (a leading zero kept) and the authority key
        /// identifier: what an ACME CertID is made of (RFC 9773 §4.1).
        public let serialNumber: [UInt8]
        public let authorityKeyID: [UInt8]?
        package let context: TLSContext

        /// Seconds from notBefore to notAfter.
        public var lifetime: Int { max(0, notAfter - notBefore) }
    }

    public struct LoadResult: Sendable {
        public let store: CertificateStore?
        public let problems: [CertificateProblem]
    }

    public let certificates: [Certificate]
    /// nil only with ACME on and nothing issued yet: a handshake for an unknown name fails.
    public let defaultCertificate: Certificate?
    /// The context a handshake begins on: the default certificate's, else one without any.
    package let initialContext: TLSContext
    private let exact: [String: TLSContext]
    private let wildcards: [String: TLSContext]

    private init(certificates: [Certificate], defaultCertificate: Certificate?) throws(OpenSSLError) {
        self.certificates = certificates
        self.defaultCertificate = defaultCertificate
        if let defaultCertificate {
            initialContext = defaultCertificate.context
        } else {
            initialContext = try TLSContext()
        }
        // A name in several certificates gets the one that expires last (a renewed or ACME
        // certificate beside an older one), the first in folder order among equals.
        var exact: [String: Certificate] = [:]
        var wildcards: [String: Certificate] = [:]
        for certificate in certificates {
            for name in certificate.names {
                let isWildcard = name.hasPrefix("*.")
                let key = isWildcard ? String(name.dropFirst(2)) : name
                let current = isWildcard ? wildcards[key] : exact[key]
                guard current.map({ $0.notAfter < certificate.notAfter }) ?? true else { continue }
                if isWildcard { wildcards[key] = certificate } else { exact[key] = certificate }
            }
        }
        self.exact = exact.mapValues(\.context)
        self.wildcards = wildcards.mapValues(\.context)
        // The handshake starts on the initial context; its ClientHello callback chooses.
        for context in certificates.map(\.context) + [initialContext] {
            SSL_CTX_set_client_hello_cb(context.context, chooseCertificate, nil)
        }
    }

    /// Exact before wildcard; nil when no certificate names the host.
    package func context(forServerName name: String) -> TLSContext? {
        if let context = exact[name] { return context }
        guard let dot = name.firstIndex(of: ".") else { return nil }
        return wildcards[String(name[name.index(after: dot)...])]
    }

    /// How long before expiry a certificate is a warning (CERT002): a sixth of its lifetime,
    /// at most 14 days (docs/usage.md, "Certificate lifetimes"). A 90-day certificate warns at 14 days
    /// left as before, a 45-day one at 7.5, a 6-day one at one, when renewal at a third of the
    /// lifetime left has failed for half of that third.
    public static func warningWindow(lifetime: Int) -> Int {
        min(max(0, lifetime) / 6, 14 * 86_400)
    }

    /// Loads every certificate and key pair below `directory` (`pairs(below:)`): certbot's
    /// layout and Kubernetes TLS Secrets. An unreadable file, a key that does not match, or an expired
    /// certificate is an error; expiry within `warningWindow` is a warning.
    ///
    /// `issued` is the folder where an issuer (ACME) keeps the certificates it replaces by itself:
    /// with one, an empty store is a store without certificates, and a certificate below it
    /// that expired or cannot be used is a warning.
    public static func load(
        directory: String, defaultName: String? = nil, issued: String? = nil, now: Int = Int(time(nil))
    ) -> LoadResult {
        // `pairs(below:)` names folders by absolute, standardized paths.
        let issuedFolder = issued.map { URL(fileURLWithPath: $0).standardizedFileURL.path + "/" }
        func severity(_ folder: String) -> Severity {
            issuedFolder.map { (folder + "/").hasPrefix($0) } == true ? .warning : .error
        }
        var problems: [CertificateProblem] = []
        var certificates: [Certificate] = []
        let found: [Files]
        do throws(SystemError) {
            found = try pairs(below: directory)
        } catch {
            // A folder that cannot be listed (EMFILE, EACCES, EIO) is never one without
            // certificates: the load fails and the store loaded before keeps serving.
            return LoadResult(
                store: nil,
                problems: [
                    CertificateProblem(
                        error.path ?? directory, .unusable, .error,
                        "cannot list the certificates folder: \(error.callAndErrno)")
                ])
        }
        for files in found {
            let (folder, chain, key) = (files.folder, files.chain, files.key)
            // OpenSSL says only "cannot load"; the owner, mode and user say what to change.
            if let reason = ReadPermission.problem(reading: key, what: "the private key")
                ?? ReadPermission.problem(reading: chain, what: "the certificate chain")
            {
                problems.append(CertificateProblem(folder, .unusable, severity(folder), reason))
                continue
            }
            do {
                let context = try TLSContext(chainFile: chain, keyFile: key)
                guard let leaf = context.certificate else {
                    throw OpenSSLError(operation: "no certificate in \(chain)", reasons: [])
                }
                let notAfter = expiry(leaf)
                let notBefore = SignerFields.seconds(X509_get0_notBefore(leaf))
                let names = dnsNames(leaf)
                if notAfter <= now {
                    problems.append(
                        CertificateProblem(
                            chain, .expired, severity(folder),
                            "the certificate expired on \(HTTPDate.format(notAfter)); renew it"))
                    continue
                }
                if notAfter - now < Self.warningWindow(lifetime: notAfter - notBefore) {
                    problems.append(
                        CertificateProblem(
                            chain, .expiring, .warning,
                            "the certificate expires on \(HTTPDate.format(notAfter)), in "
                                + "\(Self.daysLeft(notAfter, now: now)) days"
                        ))
                }
                if EVP_PKEY_get_base_id(X509_get0_pubkey(leaf)) == EVP_PKEY_RSA {
                    problems.append(
                        CertificateProblem(
                            chain, .rsaKey, .info,
                            "an RSA key: each new TLS connection costs about 3.3 times the instructions of an ECDSA "
                                + "P-256 key (a P-256 certificate, as ACME and make-dev-certs.sh make, serves more "
                                + "clicks per core)"))
                }
                if names.isEmpty {
                    problems.append(
                        CertificateProblem(
                            chain, .withoutNames, .warning,
                            "the certificate names no DNS host; only clients without SNI get it"))
                }
                certificates.append(
                    Certificate(
                        folder: folder, names: names, notBefore: notBefore, notAfter: notAfter,
                        issuer: Self.issuerName(leaf), serialNumber: Self.serialNumber(leaf),
                        authorityKeyID: Self.authorityKeyID(leaf), context: context))
            } catch {
                problems.append(CertificateProblem(folder, .unusable, severity(folder), "\(error)"))
            }
        }
        if problems.hasErrors { return LoadResult(store: nil, problems: problems) }
        guard !certificates.isEmpty || issued != nil else {
            return LoadResult(
                store: nil,
                problems: problems + [
                    CertificateProblem(
                        directory, .noCertificates, .error,
                        "no certificate pairs (fullchain.pem or cert.pem with privkey.pem, or tls.crt with tls.key) "
                            + "found"
                    )
                ])
        }
        var fallback = certificates.first
        if let defaultName, !certificates.isEmpty {
            guard
                let chosen = certificates.first(where: {
                    $0.names.contains(defaultName.lowercased())
                        || ($0.folder as NSString).lastPathComponent == defaultName
                })
            else {
                return LoadResult(
                    store: nil,
                    problems: problems + [
                        CertificateProblem(
                            directory, .noDefaultCertificate, .error,
                            "no certificate for the default name \(defaultName)")
                    ])
            }
            fallback = chosen
        }
        do {
            return LoadResult(
                store: try CertificateStore(certificates: certificates, defaultCertificate: fallback),
                problems: problems)
        } catch {
            return LoadResult(
                store: nil, problems: problems + [CertificateProblem(directory, .unusable, .error, "\(error)")])
        }
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
    /// A link to a folder counts and is not walked into. A pair reached twice (through links)
    /// counts once, by the chain's resolved path. A folder that cannot be listed is an error,
    /// never an empty one; a missing `directory` has no pairs.
    package static func pairs(below directory: String) throws(SystemError) -> [Files] {
        let fileManager = FileManager.default
        var folders: [String] = []
        var pending = [URL(fileURLWithPath: directory).path]
        while let folder = pending.popLast() {
            let entries: [FolderEntry]
            do throws(SystemError) {
                entries = try Posix.entries(atPath: folder)
            } catch let error where error.errno == ENOENT || error.errno == ENOTDIR {
                // Gone since it was listed (or never there): nothing below it.
                continue
            }
            folders.append(folder)
            for entry in entries where !entry.name.hasPrefix(".") {
                let path = folder + "/" + entry.name
                let type: mode_t
                do throws(SystemError) {
                    type = try Posix.status(path, followingLinks: false).st_mode & S_IFMT
                } catch let error where error.errno == ENOENT {
                    continue  // removed since the listing
                }
                if type == S_IFDIR {
                    pending.append(path)
                } else if type == S_IFLNK, let target = try? Posix.status(path, followingLinks: true),
                    target.st_mode & S_IFMT == S_IFDIR
                {
                    // A link to a folder (certs/example.com -> /etc/letsencrypt/live/example.com) counts too.
                    folders.append(path)
                }
            }
        }
        var seen: Set<String> = []
        var pairs: [Files] = []
        for folder in folders.map({ ($0 as NSString).standardizingPath }).sorted() {
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
        SignerFields.dnsNames(certificate)
    }

    /// Days until `notAfter`, to the nearest day: the one count the log and the status page
    /// share. Rounding to the nearest keeps a certificate issued for whole days at the same
    /// count from start-up to a page seconds later (rounding down would say 5, then 4).
    public static func daysLeft(_ notAfter: Int, now: Int = Int(time(nil))) -> Int {
        (notAfter - now + 43_200) / 86_400
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

    /// Whether a certificate naming `names` is good for `host`: the exact name, or a
    /// wildcard for its parent domain (one label, RFC 6125 §6.4.3).
    public static func covers(_ names: [String], _ host: String) -> Bool {
        if names.contains(host) { return true }
        guard let dot = host.firstIndex(of: ".") else { return false }
        return names.contains("*" + host[dot...])
    }
}

/// The ClientHello callback (SSL_CTX_set_client_hello_cb(3)), where the certificate is
/// chosen for the server name (RFC 6066 §3): a pending TLS-ALPN-01 validation certificate
/// when the client offers `acme-tls/1` (RFC 8737 §3), else the store's choice, else an
/// on-demand certificate on its way (SSL_CLIENT_HELLO_RETRY pauses the handshake: the loop
/// calls SSL_do_handshake again once a new store arrives), else the default certificate,
/// else the alert unrecognized_name (RFC 6066 §3) rather than a certificate for another name.
private func chooseCertificate(
    _ ssl: OpaquePointer?, _ alert: UnsafeMutablePointer<Int32>?, _ argument: UnsafeMutableRawPointer?
) -> Int32 {
    guard let ssl, let data = COpenSSLShims_SSL_get_app_data(ssl) else { return 1 }
    let session = Unmanaged<TLSSession>.fromOpaque(data).takeUnretainedValue()
    let store = session.certificates
    guard let name = ClientHelloExtensions.serverName(ssl) else {
        if store.defaultCertificate != nil { return 1 }
        alert?.pointee = SSL_AD_UNRECOGNIZED_NAME
        return 0
    }
    if let hooks = session.hooks, ClientHelloExtensions.offersACMETLS(ssl) {
        switch hooks.validationContext(for: name) {
        case .context(let validation):
            SSL_set_SSL_CTX(ssl, validation.context)
            return 1
        case .pending:
            // Another replica's challenge is being looked up: the loop resumes it when woken.
            return COpenSSLShims_SSL_CLIENT_HELLO_RETRY
        case .none:
            break
        }
    }
    if let context = store.context(forServerName: name) {
        SSL_set_SSL_CTX(ssl, context.context)
        return 1
    }
    if let hooks = session.hooks, hooks.certificateWanted(for: name, source: session.source) {
        return COpenSSLShims_SSL_CLIENT_HELLO_RETRY
    }
    if store.defaultCertificate != nil { return 1 }
    alert?.pointee = SSL_AD_UNRECOGNIZED_NAME
    return 0
}
