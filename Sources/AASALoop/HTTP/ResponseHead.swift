/// The one writer of response heads (RFC 9112 §4): the status line and `Date`, then the
/// response's own header lines (prepared at load time by whoever owns them), then the
/// `Connection` line and the blank line. Every response of the server, the cached ones
/// included, is framed by these two calls.
public enum ResponseHead {
    public static let crlf: [UInt8] = [0x0D, 0x0A]
    // The status lines of the request path, looked up once rather than per response.
    public static let ok = statusLine(.ok)
    public static let found = statusLine(.found)
    public static let notModified = statusLine(.notModified)
    public static let notFound = statusLine(.notFound)

    private static let statusLines: [HTTPStatus: [UInt8]] = Dictionary(
        uniqueKeysWithValues: HTTPStatus.allCases.map { ($0, statusLine($0.rawValue, $0.reason)) })

    /// `HTTP/1.1 404 Not Found\r\nDate: `, formatted once.
    public static func statusLine(_ status: HTTPStatus) -> [UInt8] {
        statusLines[status] ?? statusLine(status.rawValue, status.reason)
    }

    static func statusLine(_ code: Int, _ reason: String) -> [UInt8] {
        Array("HTTP/1.1 \(code) \(reason)\r\nDate: ".utf8)
    }

    /// The status line (from `statusLine`) and the Date field, through `put`.
    @inline(__always)
    public static func start(_ statusLine: [UInt8], date: [UInt8], _ put: (UnsafeRawBufferPointer) -> Void) {
        statusLine.withUnsafeBytes(put)
        date.withUnsafeBytes(put)
        crlf.withUnsafeBytes(put)
    }

    /// The connection header and the blank line that ends the head, through `put`.
    @inline(__always)
    public static func end(_ connection: ConnectionHeader, _ put: (UnsafeRawBufferPointer) -> Void) {
        connection.line.withUnsafeBytes(put)
        crlf.withUnsafeBytes(put)
    }
}
