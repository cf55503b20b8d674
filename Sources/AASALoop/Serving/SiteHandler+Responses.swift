import AASASystem
import AASATransport
import AssociationKit

extension SiteHandler {
    /// Answers one well-formed request: the site by host, the file by path, then method,
    /// conditionals and encoding (docs/usage.md, "Serve"); other paths by the site's fallback.json.
    package func respond(
        to head: HTTPRequestHead, in buffer: UnsafeBufferPointer<UInt8>, on connection: Connection,
        loop: EventLoop<SiteHandler>
    ) {
        // The clock is read only for the access log's duration field.
        let started = loop.accessLog.enabled ? MonotonicClock.now() : 0
        let keepAlive = head.wantsKeepAlive && loop.stopDeadline == nil
        guard let target = RequestTarget(buffer, head: head) else {
            loop.count(site: nil, path: nil, status: .badRequest)
            loop.respondWithError(.badRequest, to: connection, head: head, buffer: buffer)
            return
        }
        // The site by the host's bytes (remembered per loop, else normalized on the stack):
        // no allocation.
        var site: SiteContent?
        if let range = target.hostRange {
            guard let found = hosts.site(buffer, range, in: loop.table) else {
                loop.count(site: nil, path: nil, status: .badRequest)
                loop.respondWithError(.badRequest, to: connection, head: head, buffer: buffer)
                return
            }
            site = found
        }
        // What the request gets is decided by the routing step (`Routing/Route.swift`).
        let served: ServedPath?
        let file: PreparedFile?
        switch Route(buffer, path: target.pathRange, site: site) {
        case .file(let path, let found):
            (served, file) = (path, found)
        case .fallback(let fallback) where head.method != .other:
            let sent = respondWithFallback(
                fallback, head, buffer, target: target, site: site, on: connection, keepAlive: keepAlive, loop: loop)
            loop.log(head, buffer, connection, status: sent.status.rawValue, bytes: sent.bytes, started: started)
            return
        case .challenge:
            if respondToChallenge(head, buffer, target: target, on: connection, keepAlive: keepAlive, loop: loop) {
                loop.count(site: site, path: nil, status: .ok)
                loop.log(head, buffer, connection, status: 200, bytes: 0, started: started)
                return
            }
            (served, file) = (nil, nil)
        case .fallback, .notFound:
            (served, file) = (nil, nil)
        }
        guard let file else {
            loop.count(site: site, path: served, status: .notFound)
            if let agent = head.userAgentRange, appleFetches != nil {
                noteAppleFetch(
                    agent, buffer, head, target, connection, path: served, site: site, .notFound, file: nil, loop: loop)
            }
            loop.respondWithError(
                .notFound, to: connection, head: head, buffer: buffer, keepAlive: keepAlive, started: started)
            return
        }
        guard head.method != .other else {
            loop.count(site: site, path: served, status: .methodNotAllowed)
            loop.respondWithError(
                .methodNotAllowed, to: connection, head: head, buffer: buffer, keepAlive: keepAlive, started: started)
            return
        }
        let gzip = head.acceptEncoding.acceptsGzip ? file.gzip : nil
        let useGzip = gzip != nil
        let variant = gzip ?? file.identity
        let status: HTTPStatus = isNotModified(head, buffer, file, now: loop.dates.second) ? .notModified : .ok
        let sendsBody = status == .ok && head.method == .get
        let connectionHeader = ConnectionHeader(keepAlive: keepAlive, isHTTP11: head.isHTTP11)
        if sendsBody, let whole = responses.response(variant, connectionHeader, dates: loop.dates, output: loop.out) {
            loop.out.borrow(whole)
        } else {
            assemble(status, variant, connectionHeader, sendsBody: sendsBody, of: file, on: connection, loop: loop)
        }
        if connectionHeader == .close { connection.closeAfterWrite = true }
        if sendsBody {
            loop.counted.bodyBytes += variant.body.count
            if useGzip { loop.counted.gzipResponses += 1 } else { loop.counted.identityResponses += 1 }
        }
        loop.count(site: site, path: served, status: status)
        if let agent = head.userAgentRange, appleFetches != nil {
            noteAppleFetch(
                agent, buffer, head, target, connection, path: served, site: site, status, file: file, loop: loop)
        }
        loop.log(
            head, buffer, connection, status: status.rawValue, bytes: sendsBody ? variant.body.count : 0,
            started: started)
    }

    /// A file's response put together in the output buffer: a 304, a HEAD's head, or a 200
    /// too large for the `ResponseCache`, whose body is sent from the file, not copied.
    private func assemble(
        _ status: HTTPStatus, _ variant: PreparedFile.Variant, _ connectionHeader: ConnectionHeader, sendsBody: Bool,
        of file: PreparedFile, on connection: Connection, loop: EventLoop<SiteHandler>
    ) {
        guard status == .ok else {
            loop.startHead(ResponseHead.notModified)
            loop.out.append(PreparedFile.serverLine)
            loop.out.append(variant.headers304Tail)
            loop.endHead(connectionHeader, on: connection)
            return
        }
        ResponseHead.head200(variant, connectionHeader, dates: loop.dates) { loop.out.append($0) }
        guard sendsBody else { return }
        if variant.body.count > ResponseCache.largestResponse {
            variant.body.withUnsafeBytes { loop.out.borrow(BorrowedBody(bytes: $0, owner: file)) }
        } else {
            loop.out.append(variant.body)
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
