import COpenSSL
import Synchronization

/// The certificates after the leaf in chains (the issuers'), parsed once and shared by every
/// chain that carries the same bytes: customers' certificates from one CA carry the same one or
/// two intermediates, and OpenSSL 3 spends about 100 µs of CPU parsing each certificate (most
/// of it decoding the public key), a third of what loading a chain for its first handshake cost
/// (docs/development.md, "Many certificates"). Used by the certificate loader, off the request
/// path; OpenSSL counts references, so a forgotten entry lives on in the chains that hold it.
final class IssuerCertificates: @unchecked Sendable {
    static let shared = IssuerCertificates()

    /// More distinct issuers than this (a test making a CA per certificate) start the table
    /// over rather than grow it.
    static let limit = 256

    private let parsed = Mutex<[[UInt8]: X509Reference]>([:])

    /// The certificate of `der`, with a reference for the caller to free; nil when it does not parse.
    func certificate(der: [UInt8]) -> OpaquePointer? {
        if let known = parsed.withLock({ $0[der] }) {
            X509_up_ref(known.pointer)
            return known.pointer
        }
        let made: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var start = buffer.baseAddress
            return d2i_X509(nil, &start, buffer.count)
        }
        guard let made else { return nil }
        parsed.withLock { table in
            if table.count >= Self.limit { table = [:] }
            X509_up_ref(made)
            table[der] = X509Reference(pointer: made)
        }
        return made
    }
}

/// One reference to an `X509`, freed with the table entry that holds it.
private final class X509Reference: @unchecked Sendable {
    let pointer: OpaquePointer

    init(pointer: OpaquePointer) { self.pointer = pointer }

    deinit { X509_free(pointer) }
}
