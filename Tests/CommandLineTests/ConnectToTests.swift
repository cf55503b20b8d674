import Testing

@testable import AASACommands

/// `probe --connect-to HOST:PORT` is split by the one splitter (RFC 3986 §3.2): an IPv6 host
/// in brackets, a port from 1 to 65535, and nothing else.
@Suite("probe --connect-to")
struct ConnectToTests {
    @Test(
        "HOST:PORT, or nothing",
        arguments: [
            ("127.0.0.1:8443", "127.0.0.1", 8443), ("[::1]:8443", "::1", 8443), ("example.com:443", "example.com", 443),
            ("host:80:90", nil, nil), ("example.com", nil, nil), ("example.com:0", nil, nil),
            ("example.com:65536", nil, nil), (":443", nil, nil), ("[::1]", nil, nil),
            ("https://example.com:443", nil, nil),
            ("example.com:443/x", nil, nil), ("[::1:8443", nil, nil),
        ] as [(String, String?, Int?)])
    func connectTo(text: String, host: String?, port: Int?) {
        let parsed = ProbeCommand.parseHostPort(text)
        #expect(parsed?.0 == host && parsed?.1 == port, "\(text)")
    }
}
