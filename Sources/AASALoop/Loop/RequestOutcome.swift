import AssociationKit

/// What a handler did with one request, all the loop needs to finish it: close or keep the
/// connection, count it once and log it once (`EventLoop.finish`).
package struct RequestOutcome {
    /// How the connection goes on after the answer is written.
    package enum Closing: Sendable {
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
    /// The site that answered, for the per-site counters: held by the handler's table for as
    /// long as the request is being finished, so not retained.
    unowned(unsafe) var site: SiteContent?
    package var status: HTTPStatus
    package var closing = Closing.asAsked
    /// The Apple or Android file path the request named, for the counters.
    var path: ServedPath?
    /// A file's body was sent, and in which encoding (`Content-Encoding: gzip` or not).
    var encoding: Encoding?
    /// A fallback.json decision answered it.
    var fallback: FallbackDecision.Kind?

    package enum Encoding {
        case identity, gzip
    }

    package init(status: HTTPStatus, bodyBytes: Int = 0, closing: Closing = .asAsked) {
        self.status = status
        self.bodyBytes = bodyBytes
        self.closing = closing
    }
}
