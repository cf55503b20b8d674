/// The statuses the server sends, with their reason phrases (RFC 9110 §15).
public enum HTTPStatus: Int, Sendable, CaseIterable {
    case ok = 200
    case notModified = 304
    case badRequest = 400
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case contentTooLarge = 413
    case uriTooLong = 414
    case requestHeaderFieldsTooLarge = 431
    case notImplemented = 501
    case serviceUnavailable = 503
    case httpVersionNotSupported = 505
    /// The admin listener's: a token is missing or wrong (RFC 9110 §15.5.2), or the Host is
    /// not one it answers (§15.5.20).
    case unauthorized = 401
    case misdirectedRequest = 421
    /// fallback.json's redirect to the web (RFC 9110 §15.4.3).
    case found = 302

    /// The status's place in `HTTPStatus.allCases`, for counting into slots.
    var slot: Int {
        switch self {
        case .ok: 0
        case .notModified: 1
        case .badRequest: 2
        case .notFound: 3
        case .methodNotAllowed: 4
        case .requestTimeout: 5
        case .contentTooLarge: 6
        case .uriTooLong: 7
        case .requestHeaderFieldsTooLarge: 8
        case .notImplemented: 9
        case .serviceUnavailable: 10
        case .httpVersionNotSupported: 11
        case .unauthorized: 12
        case .misdirectedRequest: 13
        case .found: 14
        }
    }

    public var reason: String {
        switch self {
        case .ok: "OK"
        case .notModified: "Not Modified"
        case .badRequest: "Bad Request"
        case .notFound: "Not Found"
        case .methodNotAllowed: "Method Not Allowed"
        case .requestTimeout: "Request Timeout"
        case .contentTooLarge: "Content Too Large"
        case .uriTooLong: "URI Too Long"
        case .requestHeaderFieldsTooLarge: "Request Header Fields Too Large"
        case .notImplemented: "Not Implemented"
        case .serviceUnavailable: "Service Unavailable"
        case .httpVersionNotSupported: "HTTP Version Not Supported"
        case .unauthorized: "Unauthorized"
        case .misdirectedRequest: "Misdirected Request"
        case .found: "Found"
        }
    }
}
