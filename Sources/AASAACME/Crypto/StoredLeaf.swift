import AASATransport
import COpenSSL

/// The names and end of the first certificate of a stored chain: after taking a name's lock, a
/// replica reads what the store holds, since another replica may have issued or renewed it
/// while this one waited (docs/acme.md, "Several replicas").
struct StoredLeaf: Equatable {
    let names: [String]
    /// Seconds since the epoch.
    let notAfter: Int

    init?(pem: [UInt8]) {
        let bio = pem.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32(clamping: $0.count)) }
        defer { BIO_free(bio) }
        guard let certificate = PEM_read_bio_X509(bio, nil, nil, nil) else {
            ERR_clear_error()
            return nil
        }
        defer { X509_free(certificate) }
        names = CertificateStore.dnsNames(certificate)
        notAfter = CertificateStore.expiry(certificate)
    }

    /// Whether it serves every one of `names` and ends after `than` (the end of the
    /// certificate held, 0 when none is).
    func covers(_ wanted: [String], endingAfter than: Int) -> Bool {
        notAfter > than && wanted.allSatisfy { CertificateStore.covers(names, $0) }
    }
}
