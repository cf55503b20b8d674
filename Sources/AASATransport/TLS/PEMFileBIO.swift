import AASASystem
import COpenSSL

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

    /// `path`'s bytes by our own read, or why the file is refused.
    static func read(_ path: String, what: String) throws(OpenSSLError) -> [UInt8] {
        switch FileStatus.read(path, limit: limit) {
        case .regular(_, let read): return read
        case .notRegular: throw OpenSSLError(operation: "cannot load \(what) \(path): not a regular file", reasons: [])
        case .tooLarge: throw OpenSSLError(operation: "cannot load \(what) \(path): over 1 MiB", reasons: [])
        case .changing: throw OpenSSLError(operation: "cannot load \(what) \(path): it keeps changing", reasons: [])
        case .linkRefused(let why): throw OpenSSLError(operation: "cannot load \(what) \(path): \(why)", reasons: [])
        case .failed(let error, _): throw OpenSSLError(operation: "cannot load \(what) \(path): \(error)", reasons: [])
        }
    }

    /// Calls `body` with a read-only BIO over `bytes` (read from `path`; OpenSSL copies what it
    /// parses, so the caller wipes them after).
    static func with<Result>(
        bytes: [UInt8], path: String, what: String, _ body: (OpaquePointer) throws(OpenSSLError) -> Result
    ) throws(OpenSSLError) -> Result {
        let bio = bytes.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32(clamping: $0.count)) }
        guard let bio else { throw OpenSSLError.drain("cannot load \(what) \(path)") }
        defer { BIO_free(bio) }
        return try body(bio)
    }
}
