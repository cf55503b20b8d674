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

    /// The labels PEM_read_bio_X509(3) takes a certificate from.
    static let certificateLabels: Set<String> = ["CERTIFICATE", "X509 CERTIFICATE"]

    /// How blocks are read: PEM_FLAG_SECURE, so OpenSSL clears its own line and decoding
    /// buffers when it frees them (PEM_read_bio_ex(3)); PEM_read_bio(3) is the same call with
    /// PEM_FLAG_EAY_COMPATIBLE alone, which frees them as they were.
    static let blockFlags = UInt32(PEM_FLAG_SECURE | PEM_FLAG_EAY_COMPATIBLE)

    /// Calls `body` with each PEM block of `bio` in order, its label and DER, until it returns
    /// false or the blocks end (the caller clears the error queue's PEM_R_NO_START_LINE). A
    /// chain file may hold the private key too (some concatenate them), so every block's
    /// bytes are cleared when freed (CRYPTO_secure_clear_free: without a secure heap,
    /// OPENSSL_cleanse then free), not just freed (CRYPTO_free) whatever their label says.
    static func eachBlock(_ bio: OpaquePointer, _ body: (String, UnsafeBufferPointer<UInt8>) -> Bool) {
        while true {
            var name: UnsafeMutablePointer<CChar>?
            var header: UnsafeMutablePointer<CChar>?
            var data: UnsafeMutablePointer<UInt8>?
            var length = 0
            guard PEM_read_bio_ex(bio, &name, &header, &data, &length, blockFlags) == 1 else { return }
            defer {
                // Allocated the same way; the label and header say nothing secret.
                CRYPTO_secure_free(name, #fileID, #line)
                CRYPTO_secure_free(header, #fileID, #line)
                CRYPTO_secure_clear_free(data, max(length, 0), #fileID, #line)
            }
            guard let name, let data else { continue }
            guard body(String(cString: name), UnsafeBufferPointer(start: data, count: max(length, 0))) else { return }
        }
    }
}
