/// What the parser found at the front of a buffer.
enum HTTPParseResult {
    /// A complete head, written into the caller's `HTTPRequestHead`, ending at `end`
    /// (exclusive); the next request starts there.
    case complete(end: Int)
    /// More bytes are needed.
    case incomplete
    /// The request is malformed or over a limit: answer with this status and close.
    case failure(HTTPStatus)
}
