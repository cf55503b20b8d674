import AASALoop
import AssociationKit

extension SiteHandler {

    /// A GET or HEAD for a path of a site with `fallback.json` (README, "The link domain for
    /// people without the app"): the decision, then a 302, a page or a 404, each with
    /// `Vary: User-Agent` and a private `Cache-Control`.
    func respondWithFallback(
        _ fallback: SiteFallback, _ head: HTTPRequestHead, _ buffer: UnsafeBufferPointer<UInt8>,
        target: RequestTarget, site: SiteContent?, writer: ResponseWriter
    ) -> RequestOutcome {
        let range = target.pathRange
        let question = HTTPRequestParser.first(UInt8(ascii: "?"), in: buffer, range)
        let path = UnsafeBufferPointer(rebasing: buffer[range.lowerBound..<(question ?? range.upperBound)])
        let query = question.map { UnsafeBufferPointer(rebasing: buffer[($0 + 1)..<range.upperBound]) }
        let client =
            head.userAgentRange.map { FallbackClient(userAgent: UnsafeBufferPointer(rebasing: buffer[$0])) }
            ?? .desktop
        let decision = fallback.plan.decide(path: path, query: query, client: client)
        let sendsBody = head.method == .get
        var outcome: RequestOutcome
        switch decision.kind {
        case .redirect:
            writer.startHead(ResponseHead.found)
            writer.write(SiteFallback.redirectHeaders)
            decision.destination.expand(path: path, query: query) { writer.write($0) }
            writer.write(ResponseHead.crlf)
            writer.endHead()
            outcome = RequestOutcome(status: .found)
        case .notFound:
            writer.startHead(ResponseHead.notFound)
            writer.write(SiteFallback.commonHeaders)
            writer.write(SiteFallback.notFoundHeaders)
            writer.endHead()
            if sendsBody { writer.write(SiteFallback.notFoundBody) }
            outcome = RequestOutcome(status: .notFound, bodyBytes: sendsBody ? SiteFallback.notFoundBody.count : 0)
        case .page, .preview:
            var destination: [UInt8] = []
            decision.destination.expand(path: path, query: query) { destination += $0 }
            let language = head.acceptLanguageRange.map { UnsafeBufferPointer(rebasing: buffer[$0]) }
            let body =
                fallback.page(for: decision, acceptLanguage: language)?.render(
                    link: link(buffer, target.hostRange, site: site, path: path, query: query),
                    destination: destination) ?? []
            writer.startHead(ResponseHead.ok)
            writer.write(fallback.pageHead)
            writer.writeCount(body.count)
            writer.endHead()
            if sendsBody { writer.write(body) }
            outcome = RequestOutcome(status: .ok, bodyBytes: sendsBody ? body.count : 0)
        }
        outcome.site = site
        outcome.kind = UInt8(decision.kind.slot)
        return outcome
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
