import AASATransport
import AssociationKit

extension EventLoop {
    static let ok = ErrorResponses.statusLineBytes(200, "OK")
    static let notModified = ErrorResponses.statusLineBytes(304, "Not Modified")
    static let crlf: [UInt8] = [0x0D, 0x0A]

    /// Answers one well-formed request: the site by host, the file by path, then method,
    /// conditionals and encoding (docs/usage.md, "Serve"); other paths by the site's fallback.json.
    func respond(to head: HTTPRequestHead, in buffer: UnsafeBufferPointer<UInt8>, on connection: Connection) {
        // The clock is read only for the access log's duration field.
        let started = accessLog.enabled ? MonotonicClock.now() : 0
        let keepAlive = head.wantsKeepAlive && stopDeadline == nil
        guard let target = RequestTarget(buffer, head: head) else {
            count(site: nil, path: nil, status: .badRequest)
            respondWithError(.badRequest, to: connection, head: head, buffer: buffer)
            return
        }
        // The site by the host's bytes (remembered per loop, else normalized on the stack):
        // no allocation.
        var site: SiteContent?
        if let range = target.hostRange {
            guard let found = hosts.site(buffer, range, in: table) else {
                count(site: nil, path: nil, status: .badRequest)
                respondWithError(.badRequest, to: connection, head: head, buffer: buffer)
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
                fallback, head, buffer, target: target, site: site, on: connection, keepAlive: keepAlive)
            log(head, buffer, connection, status: sent.status.rawValue, bytes: sent.bytes, started: started)
            return
        case .challenge:
            if respondToChallenge(head, buffer, target: target, on: connection, keepAlive: keepAlive) {
                count(site: site, path: nil, status: .ok)
                log(head, buffer, connection, status: 200, bytes: 0, started: started)
                return
            }
            (served, file) = (nil, nil)
        case .fallback, .notFound:
            (served, file) = (nil, nil)
        }
        guard let file else {
            count(site: site, path: served, status: .notFound)
            if let agent = head.userAgentRange, appleFetches != nil {
                noteAppleFetch(agent, buffer, head, target, connection, path: served, site: site, .notFound, file: nil)
            }
            respondWithError(
                .notFound, to: connection, head: head, buffer: buffer, keepAlive: keepAlive, started: started)
            return
        }
        guard head.method != .other else {
            count(site: site, path: served, status: .methodNotAllowed)
            respondWithError(
                .methodNotAllowed, to: connection, head: head, buffer: buffer, keepAlive: keepAlive, started: started)
            return
        }
        let gzip = head.acceptEncoding.acceptsGzip ? file.gzip : nil
        let useGzip = gzip != nil
        let variant = gzip ?? file.identity
        let status: HTTPStatus = isNotModified(head, buffer, file) ? .notModified : .ok
        let sendsBody = status == .ok && head.method == .get
        let connectionHeader = ConnectionHeader(keepAlive: keepAlive, isHTTP11: head.isHTTP11)
        if sendsBody, let whole = responses.response(variant, connectionHeader, dates: dates, output: out) {
            out.borrow(whole)
        } else {
            assemble(status, variant, connectionHeader, sendsBody: sendsBody, of: file, on: connection)
        }
        if connectionHeader == .close { connection.closeAfterWrite = true }
        if sendsBody {
            counted.bodyBytes += variant.body.count
            if useGzip { counted.gzipResponses += 1 } else { counted.identityResponses += 1 }
        }
        count(site: site, path: served, status: status)
        if let agent = head.userAgentRange, appleFetches != nil {
            noteAppleFetch(agent, buffer, head, target, connection, path: served, site: site, status, file: file)
        }
        log(
            head, buffer, connection, status: status.rawValue, bytes: sendsBody ? variant.body.count : 0,
            started: started)
    }

    /// A file's response put together in the output buffer: a 304, a HEAD's head, or a 200
    /// too large for the `ResponseCache`, whose body is sent from the file, not copied.
    private func assemble(
        _ status: HTTPStatus, _ variant: PreparedFile.Variant, _ connectionHeader: ConnectionHeader, sendsBody: Bool,
        of file: PreparedFile, on connection: Connection
    ) {
        guard status == .ok else {
            out.append(Self.notModified)
            out.append(dates.httpDate)
            out.append(Self.crlf)
            out.append(PreparedFile.serverLine)
            out.append(variant.headers304Tail)
            endHead(connectionHeader, on: connection)
            return
        }
        Self.head200(variant, connectionHeader, dates: dates) { out.append($0) }
        guard sendsBody else { return }
        if variant.body.count > ResponseCache.largestResponse {
            variant.body.withUnsafeBytes { out.borrow(BorrowedBody(bytes: $0, owner: file)) }
        } else {
            out.append(variant.body)
        }
    }

    /// The head of a 200 for `variant`, piece by piece: the one layout that both the
    /// `ResponseCache` and `assemble` write.
    static func head200(
        _ variant: PreparedFile.Variant, _ connectionHeader: ConnectionHeader, dates: DateCache,
        _ put: (ArraySlice<UInt8>) -> Void
    ) {
        put(ok[...])
        put(dates.httpDate[...])
        put(crlf[...])
        put(variant.headers200)
        put(connectionHeader.line[...])
        put(crlf[...])
    }

    /// Ends a response head with its connection header (closing after the write with
    /// `Connection: close`) and the blank line.
    func endHead(_ connectionHeader: ConnectionHeader, on connection: Connection) {
        if connectionHeader == .close { connection.closeAfterWrite = true }
        out.append(connectionHeader.line)
        out.append(Self.crlf)
    }

    func endHead(keepAlive: Bool, head: HTTPRequestHead, on connection: Connection) {
        endHead(ConnectionHeader(keepAlive: keepAlive, isHTTP11: head.isHTTP11), on: connection)
    }

    /// A fixed slot per path and status; by site name only with per-site metrics on.
    @inline(__always)
    func count(site: SiteContent?, path: ServedPath?, status: HTTPStatus) {
        counted.requests.add(path: path, status: status)
        if settings.perSiteMetrics {
            let key = LoopStatistics.RequestKey(
                site: site?.name ?? "-", path: RequestCounts.pathLabels[RequestCounts.pathSlot(path)],
                status: status.rawValue)
            counted.siteRequests[key, default: 0] += 1
        }
    }

    /// RFC 9110 §13.1.2: If-None-Match wins; If-Modified-Since counts only without it.
    private func isNotModified(_ head: HTTPRequestHead, _ buffer: UnsafeBufferPointer<UInt8>, _ file: PreparedFile)
        -> Bool
    {
        if let range = head.ifNoneMatchRange {
            return RequestConditions.noneMatch(buffer, range, identity: file.identity.etag, gzip: file.gzip?.etag)
        }
        if let range = head.ifModifiedSinceRange,
            let since = HTTPDate.parse(UnsafeBufferPointer(rebasing: buffer[range]))
        {
            return file.lastModified <= since
        }
        return false
    }

    /// A short response of the server's own. Malformed requests (no `head`) and every 4xx but
    /// 404/405 close the connection afterwards.
    func respondWithError(
        _ status: HTTPStatus, to connection: Connection, head: HTTPRequestHead? = nil,
        buffer: UnsafeBufferPointer<UInt8>? = nil,
        keepAlive: Bool = false, started: UInt64? = nil
    ) {
        let closing = !keepAlive
        let response = errors.response(status, closing: closing)
        out.append(ErrorResponses.statusLine(status))
        out.append(dates.httpDate)
        out.append(response.headers)
        let sendsBody = head?.method != .head
        if sendsBody { out.append(response.body) }
        if closing {
            connection.closeAfterWrite = true
            // The client may still be sending what we refused: close by lingering.
            connection.lingerOnClose = true
        }
        if head == nil { count(site: nil, path: nil, status: status) }
        if let head, let buffer {
            log(
                head, buffer, connection, status: status.rawValue, bytes: sendsBody ? response.body.count : 0,
                started: started ?? MonotonicClock.now())
        } else {
            let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
            accessLog.record(
                AccessLog.Entry(
                    client: connection.client, host: empty, method: empty, path: empty, isHTTP11: true,
                    status: status.rawValue,
                    bytes: response.body.count, durationNanoseconds: 0, userAgent: empty),
                time: dates.logTime)
        }
    }

    func log(
        _ head: HTTPRequestHead, _ buffer: UnsafeBufferPointer<UInt8>, _ connection: Connection, status: Int,
        bytes: Int, started: UInt64
    ) {
        guard accessLog.enabled else { return }
        func slice(_ range: Range<Int>?) -> UnsafeBufferPointer<UInt8> {
            range.map { UnsafeBufferPointer(rebasing: buffer[$0]) } ?? UnsafeBufferPointer(start: nil, count: 0)
        }
        accessLog.record(
            AccessLog.Entry(
                client: connection.client, host: slice(head.hostRange), method: slice(head.methodRange),
                path: slice(head.targetRange),
                isHTTP11: head.isHTTP11, status: status, bytes: bytes,
                durationNanoseconds: MonotonicClock.now() &- started,
                userAgent: slice(head.userAgentRange)),
            time: dates.logTime)
    }
}
