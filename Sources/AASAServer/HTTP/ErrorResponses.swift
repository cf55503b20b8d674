/// The server's own short responses (404, 405, 400 …), formatted once. Only `Date` is
/// filled in per response.
struct ErrorResponses {
    struct Response {
        /// Everything after the `Date` value up to the blank line, connection header included.
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

    private static let statusLines: [HTTPStatus: [UInt8]] = Dictionary(
        uniqueKeysWithValues: HTTPStatus.allCases.map { ($0, statusLineBytes($0.rawValue, $0.reason)) })

    /// `HTTP/1.1 404 Not Found\r\nDate: `, formatted once.
    static func statusLine(_ status: HTTPStatus) -> [UInt8] {
        statusLines[status] ?? statusLineBytes(status.rawValue, status.reason)
    }

    static func statusLineBytes(_ code: Int, _ reason: String) -> [UInt8] {
        Array("HTTP/1.1 \(code) \(reason)\r\nDate: ".utf8)
    }

    /// After the `Date` value: the 400 for plain HTTP on the HTTPS port.
    static let plainHTTPOnTLSPort: [UInt8] = {
        let body = "400 Bad Request: this port speaks HTTPS; use an https:// URL\n"
        return Array(
            ("\r\nServer: aasa-server\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                + "\(body.utf8.count)\r\n"
                + "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n" + body).utf8)
    }()

    private static func make(_ status: HTTPStatus, connection: String) -> Response {
        let body = "\(status.rawValue) \(status.reason)\n"
        let allow = status == .methodNotAllowed ? "Allow: GET, HEAD\r\n" : ""
        let text =
            "\r\nServer: aasa-server\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
            + "\(body.utf8.count)\r\n"
            + "X-Content-Type-Options: nosniff\r\n\(allow)Connection: \(connection)\r\n\r\n"
        return Response(headers: Array(text.utf8), body: Array(body.utf8))
    }
}
