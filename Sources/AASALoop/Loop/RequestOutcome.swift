/// What a handler did with one request, all the loop needs to finish it: close or keep the
/// connection, count it once and log it once (`EventLoop.finish`).
public struct RequestOutcome {
    /// How the connection goes on after the answer is written.
    public enum Closing: Sendable {
        /// As the request asked (`ResponseWriter.connectionHeader`).
        case asAsked
        /// Closed once written.
        case close
        /// Closed by a lingering close: the client may still be sending what was refused.
        case linger
        /// Not answered yet: the handler waits for an answer from off the loop (an ACME
        /// challenge another replica posted), named with `ResponseWriter.waitFor`. The loop
        /// keeps the request, parks the connection, and hands the request over again when
        /// that answer comes (one not named waits for a wake-up that tries everything).
        case deferred
    }

    // Words first, then bytes: small enough to come back in registers.
    /// Body bytes sent (0 for HEAD, a 304 or a redirect), for the access log.
    package var bodyBytes = 0
    /// The site that answered, for the per-site counters: held by the handler's content for
    /// as long as the request is being finished, so not retained.
    package unowned(unsafe) var site: (any CountedSite)?
    package var status: HTTPStatus
    package var closing = Closing.asAsked
    /// The path the answer is counted under, an index into the handler's
    /// `RequestHandler.countedPaths`; nil counts as `other`.
    package var path: UInt8?
    /// A file's body was sent, and in which encoding (`Content-Encoding: gzip` or not).
    package var encoding: Encoding?
    /// A kind of answer the handler counts apart (below `RequestHandler.countedKinds`): the
    /// sites' fallback.json decisions.
    package var kind: UInt8?

    package enum Encoding {
        case identity, gzip
    }

    public init(status: HTTPStatus, bodyBytes: Int = 0, closing: Closing = .asAsked) {
        self.status = status
        self.bodyBytes = bodyBytes
        self.closing = closing
    }
}
