import AASASignedData
import AASASystem
import AssociationKit
import COpenSSL
import Foundation
@preconcurrency import Glibc

extension CertificateStore {
    /// Indexes every certificate and key pair below `directory` (`pairs(below:)`): certbot's
    /// layout and Kubernetes TLS Secrets. Only the leaf certificate of each chain is read, once
    /// per file (`scan`): its names, dates and issuer; the key is loaded with the first
    /// handshake that needs it (`CertificateCache`). A pair whose files' identities are those
    /// of `previous`'s is taken from it unread; with `folders` (paths relative to
    /// `directory`, as the file watcher names them) only the pairs in and below those folders
    /// are looked at again, and the rest of `previous` is kept as it was. `watch` is called
    /// with each folder of a full load just before it is listed (`pairs(below:watch:)`).
    ///
    /// An unreadable file or an expired certificate is an error; expiry within `warningWindow`
    /// is a warning. A key that does not match its certificate is found when it is loaded.
    /// `issued` is the folder where an issuer (ACME) keeps the certificates it replaces by
    /// itself: with one, an empty store is a store without certificates, and a certificate
    /// below it that expired or cannot be used is a warning.
    public static func load(
        directory: String, defaultName: String? = nil, issued: String? = nil, now: Int = Int(time(nil)),
        previous: CertificateStore? = nil, folders: Set<String>? = nil, cacheBytes: Int = 64 << 20,
        watch: FolderWatch? = nil
    ) -> LoadResult {
        let issuedFolder = issued.map { standardized($0) + "/" }
        func severity(_ folder: String) -> Severity {
            issuedFolder.map { (folder + "/").hasPrefix($0) } == true ? .warning : .error
        }
        let root = standardized(directory)
        var kept: [Certificate] = []
        var found: [Files] = []
        // The entries a found pair may be taken from unread: every one on a full load, only those
        // in the changed folders otherwise (a table of all 100,000 made each reload was the
        // largest part of a reload's memory).
        var replaced: [Certificate] = previous?.certificates ?? []
        do throws(SystemError) {
            if let previous, let folders {
                let changed = folders.map { (($0.isEmpty ? root : root + "/" + $0) as NSString).standardizingPath }
                func inside(_ folder: String) -> Bool {
                    changed.contains { folder == $0 || folder.hasPrefix($0 + "/") }
                }
                kept = previous.certificates.filter { !inside($0.folder) }
                replaced = previous.certificates.filter { inside($0.folder) }
                for folder in Set(changed) { found += try pairs(below: folder) }
                previous.cache.forget(chains: replaced.map(\.files.chain))
            } else {
                found = try pairs(below: directory, watch: watch)
            }
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
        let reusable = Dictionary(replaced.lazy.map { ($0.files.chain, $0) }, uniquingKeysWith: { first, _ in first })
        replaced = []
        let indexed = index(found, reusing: reusable, severity: severity)
        var problems: [CertificateProblem] = []
        var certificates: [Certificate] = []
        var seen = Set(kept.map { FileIdentityKey($0.identity.chain) })
        for result in indexed {
            switch result {
            case .failure(let problem): problems.append(problem)
            case .success(let certificate):
                // A pair reached twice (through links) counts once.
                if seen.insert(FileIdentityKey(certificate.identity.chain)).inserted {
                    certificates.append(certificate)
                }
            }
        }
        // Sorted in place: `kept` is in order already, and a copy of 100,000 entries is 22 MB.
        kept.append(contentsOf: certificates)
        certificates = []
        kept.sort { $0.folder < $1.folder }
        certificates = kept
        kept = []
        certificates.removeAll { certificate in
            let found = Self.problems(of: certificate, now: now, severity: severity(certificate.folder))
            problems += found
            return found.contains { $0.kind == .expired }
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
        let cache = previous?.cache ?? CertificateCache(budgetBytes: cacheBytes)
        var fallback: (Certificate, TLSContext)?
        // No default unless one is named: a client without SNI, or asking for a name nothing
        // covers, must not learn some customer's names from the certificate it gets.
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
            switch CertificateCache.defaultContext(chosen) {
            case .success(let context): fallback = (chosen, context)
            case .failure(let problem): return LoadResult(store: nil, problems: problems + [problem])
            }
        }
        do {
            let store = try CertificateStore(
                certificates: certificates, defaultCertificate: fallback?.0, defaultContext: fallback?.1, cache: cache)
            return LoadResult(store: store, problems: problems)
        } catch {
            return LoadResult(
                store: nil, problems: problems + [CertificateProblem(directory, .unusable, .error, "\(error)")])
        }
    }

    /// What the index says of each pair, on every core: the previous entry when both files are
    /// unchanged, else a `scan` of the leaf.
    static func index(
        _ found: [Files], reusing previous: [String: Certificate], severity: (String) -> Severity
    ) -> [Result<Certificate, CertificateProblem>] {
        let severities = found.map { severity($0.folder) }
        return ConcurrentMap.map(found.count) { position in
            indexOne(found[position], previous: previous[found[position].chain], severities[position])
        }
    }

    private static func indexOne(
        _ files: Files, previous: Certificate?, _ severity: Severity
    ) -> Result<Certificate, CertificateProblem> {
        // OpenSSL says only "cannot load"; the owner, mode and user say what to change. A key
        // its owner may read, owned by the user the server runs as (certbot's root-owned 0600
        // keys under root), needs no access(2) to say so: 100,000 of them cost 0.25 CPU-s.
        let permission = { ReadPermission.problem(reading: files.key, what: "the private key") }
        guard let (key, ownerReads) = FileStatus.withOwnerRead(files.key) else {
            return permission().map { .failure(CertificateProblem(files.folder, .unusable, severity, $0)) }
                ?? unreadable(files, severity)
        }
        if !ownerReads, let reason = permission() {
            return .failure(CertificateProblem(files.folder, .unusable, severity, reason))
        }
        if let previous, let chain = FileStatus(files.chain), previous.identity == Identity(chain: chain, key: key) {
            return .success(previous)
        }
        // The chain read once: its status from the same descriptor is its identity (no stat(2)
        // or access(2) by path before it, which at 100,000 pairs cost a second of system calls).
        var read = FileStatus.read(files.chain, limit: 1 << 20)
        // A chain file may hold the private key too (some concatenate them).
        defer { read.wipe() }
        switch read {
        case .regular(let chain, let bytes):
            let identity = Identity(chain: chain, key: key)
            if let leaf = LeafScan(pem: bytes) { return .success(certificate(files, identity, leaf)) }
            do {
                return .success(try parse(files, identity: identity))
            } catch {
                return .failure(CertificateProblem(files.folder, .unusable, severity, "\(error)"))
            }
        case .failed(let error, _) where error.errno == EACCES:
            let reason = ReadPermission.problem(reading: files.chain, what: "the certificate chain")
            return reason.map { .failure(CertificateProblem(files.folder, .unusable, severity, $0)) }
                ?? unreadable(files, severity)
        default:
            // Not a regular file of at most 1 MiB, or changing: OpenSSL's parse says what it is.
            guard let chain = FileStatus(files.chain) else { return unreadable(files, severity) }
            do {
                return .success(try scan(files, identity: Identity(chain: chain, key: key)))
            } catch {
                return .failure(CertificateProblem(files.folder, .unusable, severity, "\(error)"))
            }
        }
    }

    private static func unreadable(_ files: Files, _ severity: Severity) -> Result<Certificate, CertificateProblem> {
        .failure(CertificateProblem(files.folder, .unusable, severity, "cannot read the pair in \(files.folder)"))
    }

    private static func certificate(_ files: Files, _ identity: Identity, _ leaf: LeafScan) -> Certificate {
        Certificate(
            folder: files.folder, names: leaf.names, notBefore: leaf.notBefore, notAfter: leaf.notAfter,
            issuer: leaf.issuer, serialNumber: leaf.serialNumber, authorityKeyID: leaf.authorityKeyID,
            rsaKey: leaf.rsaKey, files: files, identity: identity)
    }

    /// Reads the leaf (the chain's first PEM certificate) for what the index keeps; the rest
    /// of the chain and the key wait for a handshake. `LeafScan` reads the DER itself; a
    /// certificate it does not read is parsed by OpenSSL.
    package static func scan(_ files: Files, identity: Identity) throws(OpenSSLError) -> Certificate {
        var read = FileStatus.read(files.chain, limit: 1 << 20)
        defer { read.wipe() }  // the chain file may hold the key too
        if case .regular(_, let bytes) = read, let leaf = LeafScan(pem: bytes) {
            return certificate(files, identity, leaf)
        }
        return try parse(files, identity: identity)
    }

    /// The same fields from OpenSSL's parse of the leaf (what `LeafScan` is checked against).
    package static func parse(_ files: Files, identity: Identity) throws(OpenSSLError) -> Certificate {
        ERR_clear_error()
        // The first certificate block, as PEM_read_bio_X509(3) finds it, but with the blocks
        // skipped on the way (a key put before the chain) cleared when freed.
        let read = try PEMFileBIO.with(files.chain, what: "the certificate chain") { bio in
            var leaf: OpaquePointer?
            PEMFileBIO.eachBlock(bio) { label, der in
                guard PEMFileBIO.certificateLabels.contains(label) else { return true }
                var start = der.baseAddress
                leaf = d2i_X509(nil, &start, der.count)
                return false
            }
            return leaf
        }
        guard let leaf = read else {
            throw OpenSSLError.drain("cannot load the certificate chain \(files.chain)")
        }
        defer { X509_free(leaf) }
        var parameters: OpaquePointer?
        let algorithm = X509_get_X509_PUBKEY(leaf).flatMap { publicKey -> Int32? in
            guard X509_PUBKEY_get0_param(&parameters, nil, nil, nil, publicKey) == 1, let parameters else {
                return nil
            }
            return OBJ_obj2nid(parameters)
        }
        return Certificate(
            folder: files.folder, names: dnsNames(leaf), notBefore: SignerFields.seconds(X509_get0_notBefore(leaf)),
            notAfter: expiry(leaf), issuer: issuerName(leaf), serialNumber: serialNumber(leaf),
            authorityKeyID: authorityKeyID(leaf), rsaKey: algorithm == NID_rsaEncryption, files: files,
            identity: identity)
    }

    /// What a certificate's dates, key and names say, from the index alone.
    static func problems(of certificate: Certificate, now: Int, severity: Severity) -> [CertificateProblem] {
        let chain = certificate.files.chain
        let (notBefore, notAfter) = (certificate.notBefore, certificate.notAfter)
        if notAfter <= now {
            return [
                CertificateProblem(
                    chain, .expired, severity, "the certificate expired on \(HTTPDate.format(notAfter)); renew it")
            ]
        }
        var problems: [CertificateProblem] = []
        if notAfter - now < Self.warningWindow(lifetime: notAfter - notBefore) {
            problems.append(
                CertificateProblem(
                    chain, .expiring, .warning,
                    "the certificate expires on \(HTTPDate.format(notAfter)), in "
                        + "\(Self.daysLeft(notAfter, now: now)) days"
                ))
        }
        if certificate.rsaKey {
            problems.append(
                CertificateProblem(
                    chain, .rsaKey, .info,
                    "an RSA key: each new TLS connection costs about 3.3 times the instructions of an ECDSA "
                        + "P-256 key (a P-256 certificate, as ACME and make-dev-certs.sh make, serves more "
                        + "clicks per core)"))
        }
        if certificate.names.isEmpty {
            problems.append(
                CertificateProblem(
                    chain, .withoutNames, .warning,
                    "the certificate names no DNS host; only clients without SNI get it"))
        }
        return problems
    }
}

/// A file by device and inode: the same file reached through two links.
private struct FileIdentityKey: Hashable {
    let device: UInt64
    let inode: UInt64

    init(_ status: FileStatus) {
        device = status.device
        inode = status.inode
    }
}
