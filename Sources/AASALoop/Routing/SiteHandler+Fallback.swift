import AssociationKit

extension SiteHandler {

    /// A GET or HEAD for a path of a site with `fallback.json` (README, "The link domain for
    /// people without the app"): the decision, then a 302, a page or a 404, each with
    /// `Vary: User-Agent` and a private `Cache-Control`. Returns the status and body bytes for
    /// the access log.
    func respondWithFallback(
        _ fallback: SiteFallback, _ head: HTTPRequestHead, _ buffer: UnsafeBufferPointer<UInt8>,
        target: RequestTarget, site: SiteContent?, on connection: Connection, keepAlive: Bool,
        loop: EventLoop<SiteHandler>
    ) -> (status: HTTPStatus, bytes: Int) {
        let range = target.pathRange
        let question = HTTPRequestParser.first(UInt8(ascii: "?"), in: buffer, range)
        let path = UnsafeBufferPointer(rebasing: buffer[range.lowerBound..<(question ?? range.upperBound)])
        let query = question.map { UnsafeBufferPointer(rebasing: buffer[($0 + 1)..<range.upperBound]) }
        let client =
            head.userAgentRange.map { FallbackClient(userAgent: UnsafeBufferPointer(rebasing: buffer[$0])) }
            ?? .desktop
        let decision = fallback.plan.decide(path: path, query: query, client: client)
        loop.counted.fallback[decision.kind.slot] += 1
        let connectionHeader = ConnectionHeader(keepAlive: keepAlive, isHTTP11: head.isHTTP11)
        let sendsBody = head.method == .get
        switch decision.kind {
        case .redirect:
            loop.startHead(ResponseHead.found)
            loop.out.append(SiteFallback.redirectHeaders)
            decision.destination.expand(path: path, query: query) { loop.out.append($0) }
            loop.out.append(ResponseHead.crlf)
            loop.endHead(connectionHeader, on: connection)
            loop.count(site: site, path: nil, status: .found)
            return (.found, 0)
        case .notFound:
            loop.startHead(ResponseHead.notFound)
            loop.out.append(SiteFallback.commonHeaders)
            loop.out.append(SiteFallback.notFoundHeaders)
            loop.endHead(connectionHeader, on: connection)
            if sendsBody { loop.out.append(SiteFallback.notFoundBody) }
            loop.count(site: site, path: nil, status: .notFound)
            return (.notFound, sendsBody ? SiteFallback.notFoundBody.count : 0)
        case .page, .preview:
            var destination: [UInt8] = []
            decision.destination.expand(path: path, query: query) { destination += $0 }
            let body =
                fallback.page(for: decision)?.render(
                    link: link(buffer, target.hostRange, site: site, path: path, query: query),
                    destination: destination) ?? []
            loop.startHead(ResponseHead.ok)
            loop.out.append(SiteFallback.commonHeaders)
            loop.out.append(SiteFallback.pageHeaders)
            loop.out.append(Array("\(body.count)\r\n".utf8))
            loop.endHead(connectionHeader, on: connection)
            if sendsBody { loop.out.append(body) }
            loop.count(site: site, path: nil, status: .ok)
            return (.ok, sendsBody ? body.count : 0)
        }
    }

    /// The link as opened: `https://HOST/PATH?QUERY` with the request's host, normalized
    /// (a wildcard site's pages name the host asked for), its path and query percent-encoded
    /// as a redirect's are.
    private func link(
        _ buffer: UnsafeBufferPointer<UInt8>, _ hostRange: Range<Int>?, site: SiteContent?,
        path: UnsafeBufferPointer<UInt8>, query: UnsafeBufferPointer<UInt8>?
    ) -> [UInt8] {
        let host = hostRange.flatMap { HostName.key(buffer, $0) } ?? site?.name ?? ""
        var link: [UInt8] = []
        guard !host.isEmpty else { return link }
        URLTemplate.expandLink(origin: Array("https://\(host)".utf8), path: path, query: query) { link += $0 }
        return link
    }
}
