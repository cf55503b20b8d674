import AASATransport

/// What a handler may write for one request, and nothing else of its loop: a response head
/// (the status line and Date, its own header lines, then the connection header the loop
/// chose), prepared bytes, a whole response or a file's body borrowed without a copy, and the
/// server's own short error answers. One per loop, around its output buffer (which the loop
/// sends once the batch of requests is answered), set up by the loop for each request: made
/// once, so that handing it over costs no reference count per request.
public final class ResponseWriter {
    package let output: OutputBuffer
    package let dates: DateCache
    private let errors = ErrorResponses()
    /// The `Connection` line every head of this answer ends with: the loop's choice from the
    /// request and whether the loop is stopping (RFC 9112 §9.3).
    var chosenConnectionHeader = ConnectionHeader.none

    /// `chosenConnectionHeader`, through an accessor compiled here: a handler's module reading
    /// a class's stored property would pay its run-time exclusivity check.
    public var connectionHeader: ConnectionHeader {
        get { chosenConnectionHeader }
        set { chosenConnectionHeader = newValue }
    }
    /// What a deferred request waits for (`waitFor`), taken by the loop when it parks it.
    var deferredFor: WaitReason?

    init(output: OutputBuffer, dates: DateCache) {
        self.output = output
        self.dates = dates
    }

    /// Says what the request the handler defers (`RequestOutcome.Closing.deferred`) waits
    /// for: the loop hands it over again when that answer comes, or with any new snapshot.
    package func waitFor(_ reason: WaitReason) {
        deferredFor = reason
    }

    /// The connection closes after this answer (the client or the loop's stop asked for it).
    package var closes: Bool { connectionHeader == .close }

    /// The second the Date header names: conditional requests compare with it.
    public var second: Int { dates.second }

    /// Begins a head: the status line (`ResponseHead.statusLine`) and Date.
    public func startHead(_ statusLine: [UInt8]) {
        ResponseHead.start(statusLine, date: dates.httpDate) { output.append($0) }
    }

    /// Ends a head: the connection header and the blank line.
    public func endHead() {
        ResponseHead.end(connectionHeader) { output.append($0) }
    }

    /// Header lines or a body, copied into the output.
    public func write(_ bytes: [UInt8]) {
        output.append(bytes)
    }

    public func write(_ bytes: ArraySlice<UInt8>) {
        output.append(bytes)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) {
        output.append(bytes)
    }

    /// A header value that is a count (Content-Length), then the line's end, without a String.
    public func writeCount(_ value: Int) {
        DecimalText.withDigits(value) { output.append($0) }
        output.append(ResponseHead.crlf)
    }

    /// A whole response that stays where it is (the `ResponseCache`) until it is sent.
    public func borrow(_ response: UnsafeRawBufferPointer) {
        output.borrow(response)
    }

    /// A body that stays in `owner`'s memory until it is sent (`owner` is held until then).
    package func borrow(_ body: UnsafeRawBufferPointer, of owner: AnyObject) {
        output.borrow(body, of: owner)
    }

    /// The clear-text 400 for plain HTTP on the HTTPS port; the connection closes after it.
    func refusePlainHTTP() -> RequestOutcome {
        startHead(ResponseHead.statusLine(.badRequest))
        output.append(ErrorResponses.plainHTTPOnTLSPort)
        return RequestOutcome(
            status: .badRequest, bodyBytes: ErrorResponses.plainHTTPBodyCount, closing: .linger)
    }

    /// The server's own short answer (`ErrorResponses`), with a body for every method but
    /// HEAD. Malformed requests (no `head`) and every 4xx but 404 and 405 close the
    /// connection, by a lingering close: the client may still be sending what was refused.
    package func error(_ status: HTTPStatus, for head: HTTPRequestHead?) -> RequestOutcome {
        let closing = head == nil || closes || (status != .notFound && status != .methodNotAllowed)
        let response = errors.response(status, closing: closing)
        startHead(ResponseHead.statusLine(status))
        output.append(response.headers)
        let sendsBody = head?.method != .head
        if sendsBody { output.append(response.body) }
        return RequestOutcome(
            status: status, bodyBytes: sendsBody ? response.body.count : 0, closing: closing ? .linger : .asAsked)
    }
}
