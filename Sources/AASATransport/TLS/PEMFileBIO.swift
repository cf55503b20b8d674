import AASASystem
import COpenSSL
@preconcurrency import Glibc

/// A certificate or key file handed to OpenSSL as a memory BIO (BIO_s_mem(3)) after our own
/// bounded, non-blocking read (`FileStatus.read`), never as a path: BIO_new_file(3) opens
/// blocking, so a FIFO named `fullchain.pem` or `privkey.pem` would hang the thread that
/// loads it (the certificate loader, or start-up) until a writer came.
enum PEMFileBIO {
    /// The largest PEM file read: a chain of a dozen certificates is a few KiB.
    static let limit = 1 << 20

    /// Calls `body` with a read-only BIO over `path`'s bytes; throws when the file is not a
    /// regular file of at most `limit` bytes, naming `what` and why.
    static func with<Result>(
        _ path: String, what: String, _ body: (OpaquePointer) throws(OpenSSLError) -> Result
    ) throws(OpenSSLError) -> Result {
        var bytes = try read(path, what: what)
        defer { ECPrivateKeyReader.wipe(&bytes) }
        return try with(bytes: bytes, path: path, what: what, body)
    }

    /// The errnos of a read that says nothing of the file: descriptors or memory short (the
    /// process's or the system's), a signal, an I/O error or a stale NFS handle. A load that
    /// meets one is tried again later (`CertificateCache`); any other (ENOENT, EACCES, ELOOP)
    /// lasts until the file changes.
    static let passingErrors: Set<Int32> = [EMFILE, ENFILE, ENOMEM, ENOBUFS, EINTR, EAGAIN, EIO, ESTALE]

    /// `path`'s bytes by our own read, or why the file is refused.
    static func read(_ path: String, what: String) throws(OpenSSLError) -> [UInt8] {
        let refused = "cannot load \(what) \(path)"
        switch FileStatus.read(path, limit: limit) {
        case .regular(_, let read): return read
        case .notRegular: throw OpenSSLError(operation: "\(refused): not a regular file", reasons: [])
        case .tooLarge: throw OpenSSLError(operation: "\(refused): over 1 MiB", reasons: [])
        // Being written: the writer finishes, with a change the index may not see yet.
        case .changing: throw OpenSSLError(operation: "\(refused): it keeps changing", reasons: [], passing: true)
        case .linkRefused(let why): throw OpenSSLError(operation: "\(refused): \(why)", reasons: [])
        case .failed(let error, _):
            throw OpenSSLError(
                operation: "\(refused): \(error.callAndErrno)", reasons: [],
                passing: passingErrors.contains(error.errno))
        }
    }

    /// Calls `body` with a read-only BIO over `bytes` (read from `path`; OpenSSL copies what it
    /// parses, so the caller wipes them after).
    static func with<Result>(
        bytes: [UInt8], path: String, what: String, _ body: (OpaquePointer) throws(OpenSSLError) -> Result
    ) throws(OpenSSLError) -> Result {
        let bio = bytes.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32(clamping: $0.count)) }
        // Only an allocation fails here.
        guard let bio else { throw OpenSSLError.drain("cannot load \(what) \(path)", passing: true) }
        defer { BIO_free(bio) }
        return try body(bio)
    }
}
