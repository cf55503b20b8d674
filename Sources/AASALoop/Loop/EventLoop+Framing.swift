import AASASystem
import AASATransport
import AssociationKit

/// HTTP/1.1 framing every handler on a loop shares (docs/ARCHITECTURE.md, "The path of a
/// request"): a head begun and ended through `ResponseHead`, the server's own error responses, and
/// the request's count and access-log line.
extension EventLoop {
    /// Begins a response head in the output: the status line and Date (`ResponseHead`).
    package func startHead(_ statusLine: [UInt8]) {
        ResponseHead.start(statusLine, date: dates.httpDate) { out.append($0) }
    }

    /// Ends a response head with its connection header (closing after the write with
    /// `Connection: close`) and the blank line.
    func endHead(_ connectionHeader: ConnectionHeader, on connection: Connection) {
        if connectionHeader == .close { connection.closeAfterWrite = true }
        ResponseHead.end(connectionHeader) { out.append($0) }
    }

    package func endHead(keepAlive: Bool, head: HTTPRequestHead, on connection: Connection) {
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

    /// A short response of the server's own. Malformed requests (no `head`) and every 4xx but
    /// 404/405 close the connection afterwards.
    func respondWithError(
        _ status: HTTPStatus, to connection: Connection, head: HTTPRequestHead? = nil,
        buffer: UnsafeBufferPointer<UInt8>? = nil,
        keepAlive: Bool = false, started: UInt64? = nil
    ) {
        let closing = !keepAlive
        let response = errors.response(status, closing: closing)
        startHead(ResponseHead.statusLine(status))
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
