extension EventLoop {
    /// Answers one request on the admin loop: the route's response, framed like every other
    /// response of this loop (Date from the loop's cache, keep-alive as the client asked, a
    /// body for every method but HEAD, RFC 9110 §9.3.2). Admin responses are never cached.
    func respondAdmin(
        to head: HTTPRequestHead, in buffer: UnsafeBufferPointer<UInt8>, on connection: Connection,
        routes: AdminRoutes
    ) {
        let keepAlive = head.wantsKeepAlive && stopDeadline == nil
        let target = String(decoding: UnsafeBufferPointer(rebasing: buffer[head.targetRange]), as: UTF8.self)
        let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = pieces.first.map(String.init) ?? target
        let query = pieces.count > 1 ? String(pieces[1]) : ""
        let response =
            head.method == .other
            ? AdminResponse(status: .methodNotAllowed, text: "only GET and HEAD\n")
            : routes.response(path: path, query: query)
        out.append(ErrorResponses.statusLine(response.status))
        out.append(dates.httpDate)
        let headers =
            "\r\nServer: aasa-server\r\nContent-Type: \(response.contentType)\r\n"
            + "Content-Length: \(response.body.count)\r\nCache-Control: no-store\r\n"
            + "X-Content-Type-Options: nosniff\r\n"
        out.append(Array(headers.utf8))
        endHead(keepAlive: keepAlive, head: head, on: connection)
        if head.method != .head { out.append(response.body) }
    }
}
