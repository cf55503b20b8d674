import AASATransport

/// One association file made ready to serve, at load time: the exact bytes, a gzip variant
/// when it is smaller, strong ETags, and every header but `Date` and `Connection`
/// pre-formatted. Serving it is a lookup and a copy into the output buffer.
public final class PreparedFile: Sendable {
    /// One encoding of the file.
    struct Variant: Sendable {
        let body: [UInt8]
        let etag: [UInt8]
        /// Headers after `Date` for a 200, each line ending in CRLF.
        let headers200: [UInt8]
        /// Headers after `Date` for a 304.
        let headers304: [UInt8]
    }

    public let bytes: Int
    public let etag: String
    public let lastModified: Int
    let identity: Variant
    let gzip: Variant?
    /// Both variants' tags: If-None-Match may carry either (weak comparison).
    let etags: [[UInt8]]

    /// Prepares `body`; `lastModified` is the file's modification time in seconds since the epoch.
    init(body: [UInt8], lastModified: Int, cacheControl: String) {
        bytes = body.count
        self.lastModified = lastModified
        let digest = Self.fnv1a64(body)
        let tag = "\"" + String(digest, radix: 16) + "-" + String(body.count, radix: 16) + "\""
        etag = tag
        let compressed = try? Gzip.compress(body)
        // Keep gzip only when it saves more than its own header line costs.
        let gzipBody = compressed.flatMap { $0.count + 24 < body.count ? $0 : nil }
        let vary = gzipBody == nil ? "" : "Vary: Accept-Encoding\r\n"
        let modified = HTTPDate.format(lastModified)
        func variant(_ body: [UInt8], etag: String, encoding: String?) -> Variant {
            let common =
                "ETag: \(etag)\r\nLast-Modified: \(modified)\r\nCache-Control: \(cacheControl)\r\n"
                + "X-Content-Type-Options: nosniff\r\n\(vary)"
            let headers200 =
                "Server: aasa-server\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
                + (encoding.map { "Content-Encoding: \($0)\r\n" } ?? "") + common
            return Variant(
                body: body, etag: Array(etag.utf8), headers200: Array(headers200.utf8),
                headers304: Array(("Server: aasa-server\r\n" + common).utf8))
        }
        identity = variant(body, etag: tag, encoding: nil)
        gzip = gzipBody.map { variant($0, etag: String(tag.dropLast()) + "-gz\"", encoding: "gzip") }
        etags = [identity.etag] + (gzip.map { [$0.etag] } ?? [])
    }

    /// FNV-1a, 64 bits: a stable content hash for the ETag (not a security boundary).
    static func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
