/// The `Connection` line a response carries (RFC 9112 §9.3, §9.6): none on an HTTP/1.1
/// connection that stays open, `keep-alive` on an HTTP/1.0 one, `close` when the server
/// closes after the response.
public enum ConnectionHeader: Int, Sendable {
    case none, keepAlive, close

    init(keepAlive: Bool, isHTTP11: Bool) {
        self = !keepAlive ? .close : isHTTP11 ? .none : .keepAlive
    }

    private static let keepAliveLine = Array("Connection: keep-alive\r\n".utf8)
    private static let closeLine = Array("Connection: close\r\n".utf8)

    /// The header line with its CRLF; empty for `.none`.
    var line: [UInt8] {
        switch self {
        case .none: []
        case .keepAlive: Self.keepAliveLine
        case .close: Self.closeLine
        }
    }
}
