import Testing

@testable import AASALoop
@testable import AASAServer

/// Which Host and Authorization fields the admin listener accepts (docs/security.md, "The admin
/// listener"), as pure functions; the listener itself is tested on the real binary.
@Suite("admin access")
struct AdminAccessTests {
    static let access = AdminAccess(hosts: ["admin.internal"], token: nil)

    static let hosts: [(String, Bool)] = [
        ("127.0.0.1", true),
        ("127.0.0.1:9090", true),
        ("10.1.2.3:9090", true),
        ("[::1]", true),
        ("[::1]:9090", true),
        ("[fe80::1]:80", true),
        ("localhost", true),
        ("LocalHost:1234", true),
        ("localhost.", true),
        ("admin.internal", true),
        ("ADMIN.internal.:9090", true),
        ("attacker.example", false),
        ("attacker.example:9090", false),
        ("localhost.attacker.example", false),
        ("127.0.0.1.nip.io", false),
        ("admin.internal.attacker.example", false),
        ("::1", false),
        ("[::1", false),
        ("[127.0.0.1]", false),
        ("127.0.0.1:abc", false),
        ("127.0.0.1:1234567", false),
        ("127.1", false),
        (":9090", false),
        ("", false),
    ]

    @Test("Host values", arguments: hosts)
    func host(value: String, allowed: Bool) {
        #expect(Self.access.allows(host: Array(value.utf8)) == allowed)
    }

    static let heads: [(String, String?)] = [
        ("GET / HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer s3cret\r\n\r\n", "s3cret"),
        ("GET / HTTP/1.1\r\nHost: a\r\nauthorization:bearer   s3cret  \r\n\r\n", "s3cret"),
        ("GET / HTTP/1.1\nHost: a\nAUTHORIZATION: BEARER abc=\n\n", "abc="),
        ("GET / HTTP/1.1\r\nHost: a\r\n\r\n", nil),
        ("GET / HTTP/1.1\r\nHost: a\r\nAuthorization: Basic czNjcmV0\r\n\r\n", nil),
        ("GET / HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer\r\n\r\n", nil),
        ("GET / HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \r\n\r\n", nil),
        ("GET / HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n", nil),
        ("GET / HTTP/1.1\r\nHost: a\r\nX-Authorization: Bearer s3cret\r\n\r\n", nil),
        // A pipelined request's field is not this request's.
        ("GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nAuthorization: Bearer s3cret\r\n\r\n", nil),
    ]

    /// The credentials the admin listener takes from a parsed head: one Authorization field
    /// with the Bearer scheme.
    @Test("Authorization: Bearer", arguments: heads)
    func bearer(head: String, expected: String?) {
        let bytes = Array(head.utf8)
        let found = bytes.withUnsafeBufferPointer { buffer -> String? in
            var parsed = HTTPRequestHead()
            guard case .complete = HTTPRequestParser(limits: HTTPLimits()).parse(buffer, from: 0, into: &parsed),
                parsed.authorizationCount == 1, let field = parsed.authorizationRange,
                let credentials = AdminAccess.credentials(buffer, field)
            else { return nil }
            return String(decoding: buffer[credentials], as: UTF8.self)
        }
        #expect(found == expected)
    }

    static let tokenFiles: [(String, String?)] = [
        ("s3cret\n", "s3cret"),
        ("s3cret\r\n", "s3cret"),
        ("s3cret", "s3cret"),
        ("a-b.c_d~e+f/g==\n", "a-b.c_d~e+f/g=="),
        ("", nil),
        ("\n", nil),
        ("s3cret\n\n", nil),
        ("two words\n", nil),
        ("=abc", nil),
        ("ab=c", nil),
        ("tökén", nil),
    ]

    @Test("admin token file contents", arguments: tokenFiles)
    func tokenFile(contents: String, expected: String?) {
        let token = try? AdminToken.token(Array(contents.utf8), path: "token")
        #expect(token.map { String(decoding: $0, as: UTF8.self) } == expected)
    }

    @Test("the token matches only itself, whatever the length of a guess")
    func matches() {
        let token = AdminToken(bytes: Array("s3cret".utf8))
        #expect(token.matches(Array("s3cret".utf8)))
        for guess in ["", "s", "s3cre", "s3cret ", "s3creT", "S3cret", "s3cret\0", "x3cret", "s3cretsecret"] {
            #expect(!token.matches(Array(guess.utf8)), "\(guess)")
        }
    }
}
