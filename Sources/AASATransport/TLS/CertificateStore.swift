import AASASystem
import COpenSSL
import COpenSSLShims
import Foundation
@preconcurrency import Glibc

/// Every certificate of a certificates directory, indexed by the DNS names inside it, and
/// the choice SNI makes among them: the exact name, else a wildcard for the name's parent
/// domain (one label, RFC 6125 §6.4.3), else the default certificate when one is named.
///
/// The index holds what each leaf certificate says (names, dates, issuer), read once per file
/// (`CertificateStore+Loading.swift`); the chain and key a handshake needs are loaded when a
/// name is first asked for, into the `CertificateCache` every store of the process shares
/// (docs/certificates.md, "Many certificates"), and given to the handshake on the context it began on.
public final class CertificateStore: @unchecked Sendable {
    /// What tells a reload that a pair changed on disk: its two files' stat(2) identities.
    package struct Identity: Sendable, Hashable {
        package let chain: FileStatus
        package let key: FileStatus

        package init(chain: FileStatus, key: FileStatus) {
            self.chain = chain
            self.key = key
        }
    }

    /// One pair of the index. A class: the store's list and a reload's copies of it hold a
    /// reference each (8 bytes), not the 220-odd bytes of its fields, so a reload that changes
    /// one certificate among 100,000 copies under a megabyte (docs/development.md, "Many
    /// certificates").
    public final class Certificate: Sendable {
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
        /// Whether the key is RSA (CERT007).
        public let rsaKey: Bool
        package let files: Files
        package let identity: Identity

        package init(
            folder: String, names: [String], notBefore: Int, notAfter: Int, issuer: String, serialNumber: [UInt8],
            authorityKeyID: [UInt8]?, rsaKey: Bool, files: Files, identity: Identity
        ) {
            self.folder = folder
            self.names = names
            self.notBefore = notBefore
            self.notAfter = notAfter
            self.issuer = issuer
            self.serialNumber = serialNumber
            self.authorityKeyID = authorityKeyID
            self.rsaKey = rsaKey
            self.files = files
            self.identity = identity
        }

        /// Seconds from notBefore to notAfter.
        public var lifetime: Int { max(0, notAfter - notBefore) }

        /// The pair's size on disk, part of what loading it costs the cache.
        var fileBytes: Int { identity.chain.size + identity.key.size }
    }

    public struct LoadResult: Sendable {
        public let store: CertificateStore?
        public let problems: [CertificateProblem]
    }

    public let certificates: [Certificate]
    /// Only when `--default-certificate` names one: clients without SNI, or asking for a name
    /// no certificate covers, get it; otherwise they get the alert unrecognized_name.
    public let defaultCertificate: Certificate?
    /// The context a handshake begins on: the default certificate's, else one without any.
    package let initialContext: TLSContext
    /// The loaded certificates, shared with every store before and after this one.
    public let cache: CertificateCache
    /// Positions in `certificates` by name: a 4-byte value per name, where a copy of the
    /// certificate's fields was about 220 bytes (docs/development.md, "Many certificates").
    private let exact: [String: Int32]
    private let wildcards: [String: Int32]

    init(
        certificates: [Certificate], defaultCertificate: Certificate?, defaultContext: TLSContext?,
        cache: CertificateCache
    ) throws(OpenSSLError) {
        self.certificates = certificates
        self.defaultCertificate = defaultCertificate
        self.cache = cache
        if let defaultContext {
            initialContext = defaultContext
        } else {
            initialContext = try TLSContext()
            // The handshake starts on the initial context; its ClientHello callback chooses.
            SSL_CTX_set_client_hello_cb(initialContext.context, chooseCertificate, nil)
        }
        // A name in several certificates gets the one that expires last (a renewed or ACME
        // certificate beside an older one), the first in folder order among equals.
        var exact: [String: Int32] = [:]
        var wildcards: [String: Int32] = [:]
        exact.reserveCapacity(certificates.count)
        for (position, certificate) in certificates.enumerated() {
            for name in certificate.names {
                let isWildcard = name.hasPrefix("*.")
                let key = isWildcard ? String(name.dropFirst(2)) : name
                let current = isWildcard ? wildcards[key] : exact[key]
                guard current.map({ certificates[Int($0)].notAfter < certificate.notAfter }) ?? true else { continue }
                if isWildcard { wildcards[key] = Int32(position) } else { exact[key] = Int32(position) }
            }
        }
        self.exact = exact
        self.wildcards = wildcards
    }

    /// Exact before wildcard; nil when no certificate names the host.
    package func certificate(forServerName name: String) -> Certificate? {
        if let position = exact[name] { return certificates[Int(position)] }
        guard let dot = name.firstIndex(of: ".") else { return nil }
        return wildcards[String(name[name.index(after: dot)...])].map { certificates[Int($0)] }
    }

    /// The `count` certificates that expire first, soonest first, found in one pass without
    /// sorting them all (the status page and `/metrics` with 100,000 certificates).
    public func soonestToExpire(_ count: Int) -> [Certificate] {
        var soonest: [Certificate] = []
        for certificate in certificates {
            guard soonest.count < count || certificate.notAfter < soonest[soonest.count - 1].notAfter else { continue }
            let position = soonest.firstIndex { $0.notAfter > certificate.notAfter } ?? soonest.count
            soonest.insert(certificate, at: position)
            if soonest.count > count { soonest.removeLast() }
        }
        return soonest
    }

    /// How long before expiry a certificate is a warning (CERT002): a sixth of its lifetime,
    /// at most 14 days (docs/acme.md, "Certificate lifetimes"). A 90-day certificate warns at 14 days
    /// left as before, a 45-day one at 7.5, a 6-day one at one, when renewal at a third of the
    /// lifetime left has failed for half of that third.
    public static func warningWindow(lifetime: Int) -> Int {
        min(max(0, lifetime) / 6, 14 * 86_400)
    }

    /// Days until `notAfter`, to the nearest day: the one count the log and the status page
    /// share. Rounding to the nearest keeps a certificate issued for whole days at the same
    /// count from start-up to a page seconds later (rounding down would say 5, then 4).
    public static func daysLeft(_ notAfter: Int, now: Int = Int(time(nil))) -> Int {
        (notAfter - now + 43_200) / 86_400
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
/// when the client offers `acme-tls/1` (RFC 8737 §3), else the store's choice, loaded if it is
/// not yet (SSL_CLIENT_HELLO_RETRY pauses the handshake: the loop calls SSL_do_handshake again
/// once the loader wakes it), else an on-demand certificate on its way (paused the same way
/// until a new store arrives), else the default certificate, else the alert unrecognized_name
/// (RFC 6066 §3) rather than a certificate for another name.
func chooseCertificate(
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
        switch hooks.validationContext(for: name, source: session.source) {
        case .context(let validation):
            SSL_set_SSL_CTX(ssl, validation.context)
            return 1
        case .pending:
            // Another replica's challenge is being looked up: the loop resumes it when woken.
            session.waitingFor = .tlsChallenge(name: name)
            return COpenSSLShims_SSL_CLIENT_HELLO_RETRY
        case .none:
            break
        }
    }
    if let certificate = store.certificate(forServerName: name) {
        switch store.cache.loaded(for: certificate, source: session.source) {
        case .ready(let loaded):
            if loaded.use(on: ssl) { return 1 }
            alert?.pointee = SSL_AD_INTERNAL_ERROR
            return 0
        case .loading:
            session.waitingFor = .certificate(chain: certificate.files.chain)
            return COpenSSLShims_SSL_CLIENT_HELLO_RETRY
        case .refused:
            // The client has its share of the loader's queue (counted by the cache): this
            // handshake fails at once, rather than waiting behind its other loads.
            alert?.pointee = SSL_AD_INTERNAL_ERROR
            return 0
        case .failed:
            break  // reported by the loader; the name is served as one without a certificate
        }
    }
    if let hooks = session.hooks, hooks.certificateWanted(for: name, source: session.source) {
        session.waitingFor = .onDemand(name: name)
        return COpenSSLShims_SSL_CLIENT_HELLO_RETRY
    }
    if store.defaultCertificate != nil { return 1 }
    alert?.pointee = SSL_AD_UNRECOGNIZED_NAME
    return 0
}
