import AASALoop

/// The admin listener's handler: its routes, over the same HTTP/1.1 framing, limits and
/// deadlines as the sites' (docs/ARCHITECTURE.md, "The admin listener"). Nothing is published
/// to it (its `Content` is `Never`): every page reads the server's current state.
final class AdminHandler: RequestHandler {
    let routes: AdminRoutes

    init(routes: AdminRoutes) {
        self.routes = routes
    }

    /// Content-Security-Policy of every admin answer (CSP Level 3): no script, plugin, frame
    /// or fetch at all; the status page's own inline `<style>` and its GET forms to itself
    /// are all it needs. A page that cannot be framed cannot be clickjacked.
    static let adminSecurityHeaders =
        "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'\r\nX-Content-Type-Options: nosniff\r\n"

    /// Answers one request on the admin loop: the route's response, framed like every other
    /// response of this loop (Date from the loop's cache, keep-alive as the client asked, a
    /// body for every method but HEAD, RFC 9110 §9.3.2). Admin responses are never cached.
    /// Who may ask (`AdminAccess`) is decided first, once, before any route runs.
    func respond(
        to head: HTTPRequestHead, in buffer: UnsafeBufferPointer<UInt8>, from client: RequestClient,
        writer: ResponseWriter
    ) -> RequestOutcome {
        // Split at the first "?" byte (a `Character` split would miss one that a combining
        // mark follows).
        let target = head.targetRange
        let question = buffer[target].firstIndex(of: UInt8(ascii: "?")) ?? target.upperBound
        let path = String(decoding: UnsafeBufferPointer(rebasing: buffer[target.lowerBound..<question]), as: UTF8.self)
        let query =
            question < target.upperBound
            ? String(decoding: UnsafeBufferPointer(rebasing: buffer[(question + 1)..<target.upperBound]), as: UTF8.self)
            : ""
        let response =
            routes.access.refusal(for: head, in: buffer, path: path)
            ?? (head.method == .other
                ? AdminResponse(status: .methodNotAllowed, text: "only GET and HEAD\n")
                : routes.response(path: path, query: query))
        writer.startHead(ResponseHead.statusLine(response.status))
        let headers =
            "Server: aasa-server\r\nContent-Type: \(response.contentType)\r\n"
            + "Content-Length: \(response.body.count)\r\nCache-Control: no-store\r\n"
            + Self.adminSecurityHeaders
            + (response.asksForToken ? "WWW-Authenticate: Bearer realm=\"aasa-server admin\"\r\n" : "")
        writer.write(Array(headers.utf8))
        writer.endHead()
        let sendsBody = head.method != .head
        if sendsBody { writer.write(response.body) }
        return RequestOutcome(status: response.status, bodyBytes: sendsBody ? response.body.count : 0)
    }
}
