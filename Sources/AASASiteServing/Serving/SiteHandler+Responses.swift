import AASALoop
import AASASystem
import AASATransport
import AssociationKit

extension SiteHandler {
    /// Answers one well-formed request: the site by host, the file by path, then method,
    /// conditionals and encoding (docs/serving.md, "Serving at a glance"); other paths by the site's
    /// fallback.json.
    package mutating func respond(
        to head: HTTPRequestHead, in buffer: UnsafeBufferPointer<UInt8>, from client: RequestClient,
        writer: ResponseWriter
    ) -> RequestOutcome {
        guard let target = RequestTarget(buffer, head: head) else { return writer.error(.badRequest, for: head) }
        // The site by the host's bytes (remembered per loop, else normalized on the stack):
        // no allocation.
        var site: SiteContent?
        if let range = target.hostRange {
            guard let found = hosts.site(buffer, range, in: table) else { return writer.error(.badRequest, for: head) }
            site = found
        }
        // What the request gets is decided by the routing step (`Routing/Route.swift`).
        let served: ServedPath?
        let file: PreparedFile?
        switch Route(buffer, path: target.pathRange, site: site, paths: paths) {
        case .file(let path, let found):
            (served, file) = (path, found)
        case .redirect(let redirect) where head.method != .other:
            writer.startHead(ResponseHead.found)
            writer.write(redirect.headers)
            writer.endHead()
            var outcome = RequestOutcome(status: .found)
            (outcome.site, outcome.path) = (site, ServedPath.changePassword.index)
            return outcome
        case .fallback(let fallback) where head.method != .other:
            return respondWithFallback(fallback, head, buffer, target: target, site: site, writer: writer)
        case .challenge:
            if let outcome = respondToChallenge(head, buffer, target: target, site: site, client, writer: writer) {
                return outcome
            }
            (served, file) = (nil, nil)
        case .redirect:
            var outcome = writer.error(.methodNotAllowed, for: head)
            (outcome.site, outcome.path) = (site, ServedPath.changePassword.index)
            return outcome
        case .fallback, .notFound:
            (served, file) = (nil, nil)
        }
        var outcome: RequestOutcome
        if let file, head.method != .other {
            outcome = respond(with: file, head, buffer, writer: writer)
        } else {
            outcome = writer.error(file == nil ? .notFound : .methodNotAllowed, for: head)
        }
        outcome.site = site
        outcome.path = served?.index
        if outcome.status != .methodNotAllowed, let agent = head.userAgentRange, appleFetches != nil {
            noteAppleFetch(agent, buffer, head, target, client, path: served, site: site, outcome.status, file: file)
        }
        return outcome
    }

    /// A file's 200 or 304: whole from the `ResponseCache` when it can be, else assembled.
    @inline(__always)
    private func respond(
        with file: PreparedFile, _ head: HTTPRequestHead, _ buffer: UnsafeBufferPointer<UInt8>,
        writer: ResponseWriter
    ) -> RequestOutcome {
        let gzip = head.acceptEncoding.acceptsGzip ? file.gzip : nil
        let variant = gzip ?? file.identity
        let status: HTTPStatus = isNotModified(head, buffer, file, now: writer.second) ? .notModified : .ok
        let sendsBody = status == .ok && head.method == .get
        if sendsBody, let whole = responses.response(variant, writer) {
            writer.borrow(whole)
        } else {
            assemble(status, variant, sendsBody: sendsBody, of: file, writer: writer)
        }
        guard sendsBody else { return RequestOutcome(status: status) }
        var outcome = RequestOutcome(status: status, bodyBytes: variant.body.count)
        outcome.encoding = gzip != nil ? .gzip : .identity
        return outcome
    }

    /// A file's response put together in the output: a 304, a HEAD's head, or a 200 too
    /// large for the `ResponseCache`, whose body is sent from the file, not copied.
    private func assemble(
        _ status: HTTPStatus, _ variant: PreparedFile.Variant, sendsBody: Bool, of file: PreparedFile,
        writer: ResponseWriter
    ) {
        guard status == .ok else {
            writer.startHead(ResponseHead.notModified)
            writer.write(PreparedFile.serverLine)
            writer.write(variant.headers304Tail)
            writer.endHead()
            return
        }
        ResponseHead.head200(variant, writer.connectionHeader, dates: writer.dates) { writer.write($0) }
        guard sendsBody else { return }
        if variant.body.count > ResponseCache.largestResponse {
            variant.body.withUnsafeBytes { writer.borrow($0, of: file) }
        } else {
            writer.write(variant.body)
        }
    }

    /// RFC 9110 §13.1.2: If-None-Match wins; If-Modified-Since counts only without it, and
    /// only with a date that is not after the server's clock (RFC 9110 §13.1.3: such a date
    /// is invalid, and a client that sends one would otherwise never see a newer file).
    private func isNotModified(
        _ head: HTTPRequestHead, _ buffer: UnsafeBufferPointer<UInt8>, _ file: PreparedFile, now: Int
    ) -> Bool {
        if let range = head.ifNoneMatchRange {
            return RequestConditions.noneMatch(
                buffer, range, lines: head.ifNoneMatchLines, identity: file.identity.etag, gzip: file.gzip?.etag)
        }
        if let range = head.ifModifiedSinceRange,
            let since = HTTPDate.parse(UnsafeBufferPointer(rebasing: buffer[range])), since <= now
        {
            return file.lastModified <= since
        }
        return false
    }
}
