import COpenSSL

/// OpenSSL's in-memory BIO (BIO_s_mem(3)): what a PEM writer writes, as bytes.
package enum MemoryBIO {
    /// Runs `write` on a memory BIO and returns what it wrote, or nothing when it fails.
    package static func bytes(_ write: (OpaquePointer?) -> Int32) -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else { return [] }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let count = BIO_read(bio, &bytes, Int32(bytes.count))
        return Array(bytes.prefix(max(0, Int(count))))
    }
}
