import Testing

@testable import AASATransport

/// The Host field the HTTPS client sends (RFC 9110 §7.2): the port only when it is not 443,
/// an IPv6 literal in brackets, as a URL writes it (RFC 3986 §3.2.2).
@Suite("HTTPS client's Host field")
struct HTTPSClientHostFieldTests {
    @Test(
        "host and port as a URL writes them",
        arguments: [
            ("example.com", 443, "example.com"), ("example.com", 8443, "example.com:8443"),
            ("127.0.0.1", 8443, "127.0.0.1:8443"), ("::1", 8443, "[::1]:8443"), ("2001:db8::1", 443, "[2001:db8::1]"),
        ])
    func hostField(_ host: String, _ port: Int, _ expected: String) {
        #expect(HTTPSClient.hostField(host, port: port) == expected)
    }
}
