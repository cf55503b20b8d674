import AASALoop

/// A site's fixed redirect, `/.well-known/change-password` to `site.json`'s `changePassword`
/// (W3C "A Well-Known URL for Changing Passwords"): its head after the Date, made at load.
public final class PreparedRedirect: Sendable, Equatable {
    public let location: String
    /// `Location`, `Content-Length: 0` and `Cache-Control` lines, each ending in CRLF.
    let headers: [UInt8]

    package init(location: String, cacheControl: String) {
        self.location = location
        headers = Array(
            ("Server: aasa-server\r\nLocation: \(location)\r\nContent-Length: 0\r\nCache-Control: \(cacheControl)\r\n")
                .utf8)
    }

    public static func == (lhs: PreparedRedirect, rhs: PreparedRedirect) -> Bool { lhs.headers == rhs.headers }
}
