import AssociationKit
import Testing

/// The one host/URL splitter (RFC 3986 §3.2) and the normalizers over it: Host headers,
/// site folder names, URLs fetched, `probe` targets and `--connect-to`.
@Suite("host and URL splitting")
struct HostSplittingTests {
    struct Row: Sendable, CustomStringConvertible {
        var text: String
        var scheme: String?
        var host: String
        var port: Int?
        var literal: Bool
        var path: String
        var description: String { text }
    }

    static func row(
        _ text: String, _ scheme: String?, _ host: String, _ port: Int?, _ path: String = "", literal: Bool = false
    ) -> Row {
        Row(text: text, scheme: scheme, host: host, port: port, literal: literal, path: path)
    }

    static let splits: [Row] = [
        row("example.com", nil, "example.com", nil),
        row("Example.COM:8443", nil, "Example.COM", 8443),
        row("example.com:", nil, "example.com", nil),
        row("example.com/a/b?q=1#frag", nil, "example.com", nil, "/a/b?q=1"),
        row("https://example.com", "https", "example.com", nil),
        row("HTTPS://example.com:443/.well-known/x?y", "https", "example.com", 443, "/.well-known/x?y"),
        row("https://example.com?q", "https", "example.com", nil, "?q"),
        row("[::1]:8443", nil, "::1", 8443, literal: true),
        row("https://[2001:DB8::1]/x", "https", "2001:DB8::1", nil, "/x", literal: true),
        row("[::ffff:127.0.0.1]", nil, "::ffff:127.0.0.1", nil, literal: true),
        row("127.0.0.1:0", nil, "127.0.0.1", 0),
        row("localhost:65535", nil, "localhost", 65535),
    ]

    @Test("URLs and authorities split into scheme, host, port and path", arguments: splits)
    func splitsURL(row: Row) throws {
        let parts = try #require(URLParts(row.text))
        #expect(parts.scheme == row.scheme)
        #expect(parts.host == row.host)
        #expect(parts.port == row.port)
        #expect(parts.isIPLiteral == row.literal)
        #expect(parts.pathAndQuery == row.path)
    }

    @Test(
        "no authority, a bad port, bad brackets, userinfo or a raw byte no URL holds: nothing",
        arguments: [
            "", ":443", "https://", "https:///x", "example.com:65536", "example.com:123456", "example.com:8x",
            "example.com:-1", "example.com:80:90", "[::1", "[]", "[::1]x", "[g::1]", "user@example.com",
            "https://user:pw@example.com/", "https://example.com/a b", "https://example.com/\r\nX: y",
            "https://exämple.com", "1http://example.com", "ht tp://example.com",
        ])
    func refuses(text: String) {
        #expect(URLParts(text) == nil)
    }

    @Test("the request target: the path and query, / when there is no path")
    func targets() {
        #expect(URLParts("https://example.com")?.target == "/")
        #expect(URLParts("https://example.com?q=1")?.target == "/?q=1")
        #expect(URLParts("https://example.com/dir/")?.target == "/dir/")
    }

    @Test(
        "Host values and folder names normalize the same way",
        arguments: [
            ("Example.COM", "example.com", "example.com"),
            ("example.com.", "example.com", "example.com"),
            ("example.com:8443", "example.com", nil),
            ("*.Example.com.", nil, "*.example.com"),
            ("*.", nil, nil),
            ("[::1]:80", "::1", nil),
            ("[::1]", "::1", nil),
            ("user@example.com", nil, nil),
            ("bad name", nil, nil),
            ("bücher.de", nil, nil),
            ("a..b", nil, nil),
            ("..", nil, nil),
            ("", nil, nil),
            ("example.com:99999", nil, nil),
        ] as [(String, String?, String?)])
    func normalizes(raw: String, host: String?, folder: String?) {
        #expect(HostName.normalize(raw) == host)
        #expect(HostName.siteKey(folder: raw) == folder)
    }
}
