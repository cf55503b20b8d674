import AASASystem
import AASATransport

/// HTTP/1.1 for every handler on a loop (docs/ARCHITECTURE.md, "The path of a request"): the
/// loop frames each request, hands its head and a `ResponseWriter` to the handler, and from
/// the `RequestOutcome` it gets back closes or keeps the connection, counts and logs, once.
extension EventLoop {
    /// Answers each complete request head in `buffer` while the connection's output is under
    /// its high-water mark and its turn lasts; returns where the unconsumed bytes start.
    func serveHTTP1(_ buffer: UnsafeBufferPointer<UInt8>, on connection: Connection, budget: inout TurnBudget) -> Int {
        var start = 0
        var head = HTTPRequestHead()
        // Kept in a local while parsing (an inout access to the connection's own would hold
        // the connection for every call) and stored back when a head is left incomplete.
        var scan = connection.scan
        connection.parsePaused = false
        while start < buffer.count && !connection.closeAfterWrite {
            if budget.requests <= 0 || outputBacklog(connection) >= settings.outputHighWater {
                connection.parsePaused = true
                return start
            }
            switch parser.parse(buffer, from: start, resuming: &scan, into: &head) {
            case .complete(let end):
                scan = HeadScan()
                connection.scan = scan
                budget.requests -= 1
                guard answer(head, in: buffer, on: connection) else {
                    park(connection)
                    return start
                }
                start = end
            case .incomplete:
                connection.scan = scan
                return start
            case .failure(let status):
                connection.scan = HeadScan()
                writer.connectionHeader = .close
                finishUnparsed(writer.error(status, for: nil), on: connection)
                return buffer.count
            }
        }
        return connection.closeAfterWrite ? buffer.count : start
    }

    /// One well-formed request: the handler answers it, the loop finishes it. False when the
    /// handler deferred it (nothing was written: the request is handed over again later).
    @inline(__always)
    private func answer(_ head: HTTPRequestHead, in buffer: UnsafeBufferPointer<UInt8>, on connection: Connection)
        -> Bool
    {
        // The clock is read only for the access log's duration field.
        let logging = accessLog.enabled
        let started = logging ? MonotonicClock.now() : 0
        let keepAlive = head.wantsKeepAlive && stopDeadline == nil
        writer.connectionHeader = ConnectionHeader(keepAlive: keepAlive, isHTTP11: head.isHTTP11)
        // `OPTIONS *` asks what the server as a whole allows (RFC 9112 §3.2.4): the loop
        // answers it, as the server has no options beyond GET and HEAD (405 with Allow).
        let outcome =
            head.isAsteriskForm
            ? writer.error(.methodNotAllowed, for: head)
            : handler.respond(to: head, in: buffer, from: RequestClient(connection), writer: writer)
        if outcome.closing == .deferred { return false }
        finish(outcome, on: connection, keepAlive: keepAlive)
        if logging { log(outcome, head, buffer, on: connection, started: started) }
        return true
    }

    /// Keeps a deferred request and everything behind it unparsed, reads nothing more from the
    /// connection, and waits for the answer the handler named (`EventLoop+Waiting.swift`);
    /// the connection's deadline still runs, so a request that is never answered is closed.
    private func park(_ connection: Connection) {
        connection.parsePaused = true
        connection.awaitingAnswer = true
        wait(connection, for: writer.deferredFor)
        writer.deferredFor = nil
    }

    /// An answer to bytes that are no request (a malformed head, plain HTTP on the HTTPS
    /// port): finished, counted and logged like every other, with no head to show.
    func finishUnparsed(_ outcome: RequestOutcome, on connection: Connection) {
        finish(outcome, on: connection)
        if accessLog.enabled { logUnparsed(outcome, on: connection) }
    }

    /// Closes or keeps the connection as the outcome says, and counts it: a fixed slot per
    /// path and status; by site name only with per-site metrics on.
    @inline(__always)
    private func finish(_ outcome: RequestOutcome, on connection: Connection, keepAlive: Bool = false) {
        switch outcome.closing {
        case .asAsked:
            if !keepAlive { connection.closeAfterWrite = true }
        case .close:
            connection.closeAfterWrite = true
        case .linger:
            connection.closeAfterWrite = true
            connection.lingerOnClose = true
        case .deferred:
            break
        }
        counted.requests.add(path: outcome.path, status: outcome.status)
        if let encoding = outcome.encoding {
            counted.bodyBytes += outcome.bodyBytes
            if encoding == .gzip { counted.gzipResponses += 1 } else { counted.identityResponses += 1 }
        }
        if let kind = outcome.kind, Int(kind) < counted.kinds.count { counted.kinds[Int(kind)] += 1 }
        if settings.perSiteMetrics {
            let paths = Handler.countedPaths
            let key = LoopStatistics.RequestKey(
                site: outcome.site?.name ?? "-", path: outcome.path.map { paths[Int($0)] } ?? "other",
                status: outcome.status.rawValue)
            counted.siteRequests[key, default: 0] += 1
        }
    }

    private func log(
        _ outcome: RequestOutcome, _ head: HTTPRequestHead, _ buffer: UnsafeBufferPointer<UInt8>,
        on connection: Connection, started: UInt64
    ) {
        func slice(_ range: Range<Int>?) -> UnsafeBufferPointer<UInt8> {
            range.map { UnsafeBufferPointer(rebasing: buffer[$0]) } ?? UnsafeBufferPointer(start: nil, count: 0)
        }
        accessLog.record(
            AccessLog.Entry(
                client: connection.client, host: slice(head.hostRange), method: slice(head.methodRange),
                path: slice(head.targetRange), isHTTP11: head.isHTTP11, status: outcome.status.rawValue,
                bytes: outcome.bodyBytes, durationNanoseconds: MonotonicClock.now() &- started,
                userAgent: slice(head.userAgentRange)),
            time: dates.logTime)
    }

    /// The log line of a request that could not be parsed: no head to show.
    private func logUnparsed(_ outcome: RequestOutcome, on connection: Connection) {
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        accessLog.record(
            AccessLog.Entry(
                client: connection.client, host: empty, method: empty, path: empty, isHTTP11: true,
                status: outcome.status.rawValue, bytes: outcome.bodyBytes, durationNanoseconds: 0, userAgent: empty),
            time: dates.logTime)
    }
}
