import AASALoop
import AASASystem
import AASATransport
import AssociationKit

/// One association file made ready to serve, at load time: the exact bytes, a gzip variant
/// when it is smaller, strong ETags, and every header but `Date` and `Connection`
/// pre-formatted; the loops' `ResponseCache` adds the rest once per second. Each encoding
/// is one buffer (headers, then body) so 100,000 sites cost little beyond their files
/// (docs/serving.md, "Many sites").
public final class PreparedFile: Sendable {
    /// One encoding of the file: `storage` holds the 200's headers after `Date`, each line
    /// ending in CRLF, then the body.
    struct Variant: Sendable {
        let storage: [UInt8]
        /// Where the body starts.
        let headerEnd: Int
        /// Where the lines a 304 repeats start (from `ETag:`).
        let sharedStart: Int
        /// The entity-tag, quotes included, inside the headers.
        let etagRange: Range<Int>

        var headers200: ArraySlice<UInt8> { storage[..<headerEnd] }
        /// A 304's headers after `Server` (RFC 9110 §15.4.5: the validators and caching fields).
        var headers304Tail: ArraySlice<UInt8> { storage[sharedStart..<headerEnd] }
        var body: ArraySlice<UInt8> { storage[headerEnd...] }
        var etag: ArraySlice<UInt8> { storage[etagRange] }
    }

    static let serverLine = Array("Server: aasa-server\r\n".utf8)

    public let bytes: Int
    public let lastModified: Int
    /// A CMS-signed file's JSON content (docs/association-files.md, "Signed files"); nil when
    /// the body is the JSON.
    let signedContent: [UInt8]?
    let identity: Variant
    let gzip: Variant?

    /// Prepares `body` as `contentType` (its kind's, `WellKnownFile.contentType`); `lastModified`
    /// is the file's modification time in seconds since the epoch. A signed file
    /// (`signedContent` set) is sent as `application/pkcs7-mime`, the type Apple's iOS 8
    /// instructions give, with the same gzip, ETag and size rules as JSON.
    package init(
        body: [UInt8], lastModified: Int, cacheControl: String, contentType: String, signedContent: [UInt8]? = nil
    ) {
        bytes = body.count
        self.lastModified = lastModified
        self.signedContent = signedContent
        let contentType = signedContent == nil ? contentType : "application/pkcs7-mime"
        let digest = FNV1a.hash64(body)
        let tag = "\"" + String(digest, radix: 16) + "-" + String(body.count, radix: 16) + "\""
        let compressed = try? Gzip.compress(body)
        // Keep gzip only when it saves more than its own header line costs.
        let gzipBody = compressed.flatMap { $0.count + 24 < body.count ? $0 : nil }
        let vary = gzipBody == nil ? "" : "Vary: Accept-Encoding\r\n"
        let modified = HTTPDate.format(lastModified)
        func variant(_ body: [UInt8], etag: String, encoding: String?) -> Variant {
            let head =
                "Server: aasa-server\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
                + (encoding.map { "Content-Encoding: \($0)\r\n" } ?? "")
            let shared =
                "ETag: \(etag)\r\nLast-Modified: \(modified)\r\nCache-Control: \(cacheControl)\r\n"
                + "X-Content-Type-Options: nosniff\r\n\(vary)"
            var storage: [UInt8] = []
            storage.reserveCapacity(head.utf8.count + shared.utf8.count + body.count)
            storage += head.utf8
            let sharedStart = storage.count
            storage += shared.utf8
            let headerEnd = storage.count
            storage += body
            let etagStart = sharedStart + "ETag: ".utf8.count
            return Variant(
                storage: storage, headerEnd: headerEnd, sharedStart: sharedStart,
                etagRange: etagStart..<(etagStart + etag.utf8.count))
        }
        identity = variant(body, etag: tag, encoding: nil)
        gzip = gzipBody.map { variant($0, etag: String(tag.dropLast()) + "-gz\"", encoding: "gzip") }
    }

    /// The identity encoding's entity-tag, quotes included.
    public var etag: String { String(decoding: identity.etag, as: UTF8.self) }

    /// The file's exact bytes, as served without compression.
    public var body: ArraySlice<UInt8> { identity.body }

    /// The JSON the file means: a signed file's content, else the body.
    public var json: [UInt8] { signedContent ?? Array(body) }

    /// True when both serve the same bytes with the same headers (unchanged across a reload).
    func isSameFile(as other: PreparedFile?) -> Bool {
        guard let other else { return false }
        return self === other || (lastModified == other.lastModified && identity.storage == other.identity.storage)
    }
}
