/// The parts of a request head the server acts on. Values are byte ranges into the buffer
/// the head was parsed from, so parsing allocates nothing; they are valid until that buffer
/// changes. Plain data (no references), so the parser fills one in place per request.
public struct HTTPRequestHead {
    public enum Method: Equatable, Sendable {
        case get, head, other
    }

    // Small fields first and the counts together: the head is copied whole per request, and
    // this order keeps it under 256 bytes, where memcpy takes its short path (callgrind:
    // docs/development.md, "Benchmarks").
    package var method = Method.other
    /// HTTP/1.0 (false) or HTTP/1.1 (true).
    package var isHTTP11 = false
    package var connectionClose = false
    package var connectionKeepAlive = false
    /// `OPTIONS *` (RFC 9112 §3.2.4): the loop answers it, no handler.
    package var isAsteriskForm = false
    package var transferEncoding = TransferCodings()
    package var acceptEncoding = AcceptEncoding()
    package var methodRange = 0..<0
    package var targetRange = 0..<0
    package var hostCount = 0
    /// If-None-Match's field lines (below).
    package var ifNoneMatchLines = 0
    package var authorizationCount = 0
    package var hostRange: Range<Int>?
    package var userAgentRange: Range<Int>?
    /// The first Accept-Language line: the language of a fallback page (RFC 9110 §12.5.4).
    package var acceptLanguageRange: Range<Int>?
    /// `X-Forwarded-For`, believed only from a trusted proxy (`EventLoop.clientAddress`).
    package var forwardedForRange: Range<Int>?
    /// From the first If-None-Match value to the end of the last: a list sent on several
    /// field lines is one list (RFC 9110 §5.3), read line by line when `ifNoneMatchLines > 1`.
    package var ifNoneMatchRange: Range<Int>?
    package var ifModifiedSinceRange: Range<Int>?
    /// The admin listener's credentials (RFC 9110 §11.6.2); more than one is refused there.
    package var authorizationRange: Range<Int>?
    package var contentLength: Int?

    /// RFC 9112 §9.3: HTTP/1.1 persists unless "close"; HTTP/1.0 only with "keep-alive".
    package var wantsKeepAlive: Bool {
        isHTTP11 ? !connectionClose : connectionKeepAlive && !connectionClose
    }
}
