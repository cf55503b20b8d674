/// The server's own short responses (404, 405, 400 …), formatted once. Only `Date` is
/// filled in per response.
package struct ErrorResponses {
    struct Response {
        /// Everything after the `Date` line up to the blank line, connection header included.
        let headers: [UInt8]
        /// Sent for every method but HEAD (RFC 9110 §9.3.2).
        let body: [UInt8]
    }

    private var keepAlive: [HTTPStatus: Response] = [:]
    private var close: [HTTPStatus: Response] = [:]

    init() {
        for status in HTTPStatus.allCases where status != .ok && status != .notModified {
            keepAlive[status] = Self.make(status, connection: "keep-alive")
            close[status] = Self.make(status, connection: "close")
        }
    }

    func response(_ status: HTTPStatus, closing: Bool) -> Response {
        // Every status but 200 and 304 is formatted in init; those two never come here.
        (closing ? close : keepAlive)[status] ?? Self.make(status, connection: closing ? "close" : "keep-alive")
    }

    private static let plainHTTPBody = "400 Bad Request: this port speaks HTTPS; use an https:// URL\n"
    static let plainHTTPBodyCount = plainHTTPBody.utf8.count

    /// After the `Date` line: the 400 for plain HTTP on the HTTPS port.
    static let plainHTTPOnTLSPort: [UInt8] = {
        let body = plainHTTPBody
        return Array(
            ("Server: aasa-server\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                + "\(body.utf8.count)\r\n"
                + "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n" + body).utf8)
    }()

    private static func make(_ status: HTTPStatus, connection: String) -> Response {
        let body = "\(status.rawValue) \(status.reason)\n"
        let allow = status == .methodNotAllowed ? "Allow: GET, HEAD\r\n" : ""
        let text =
            "Server: aasa-server\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
            + "\(body.utf8.count)\r\n"
            + "X-Content-Type-Options: nosniff\r\n\(allow)Connection: \(connection)\r\n\r\n"
        return Response(headers: Array(text.utf8), body: Array(body.utf8))
    }
}
