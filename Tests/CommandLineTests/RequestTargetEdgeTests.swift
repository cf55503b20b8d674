import Foundation
import TestSupport
import Testing

/// Request lines and framing an attacker (or an outside conformance suite) sends as raw bytes,
/// to the real binary: each answer is the one RFC 9112 asks for.
@Suite("aasa-server serve: request-target and framing edges", .serialized)
final class RequestTargetEdgeTests {
    let folder: TemporaryFolder
    let server: RunningServer

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", SiteFixtures.oneAppAASA(path: "/buy/*"))
        try folder.write(
            "config.json", #"{"sites": "sites", "timeouts": {"requestHead": 2, "keepAlive": 2}, "workers": 1}"#)
        server = try RunningServer(in: folder.url, ["--config", "config.json"])
    }

    deinit {
        _ = server.stop()
    }

    /// What the server answered `bytes` with, and whether it then closed.
    func send(_ bytes: [UInt8]) throws -> (text: String, closed: Bool) {
        let client = try RawClient(port: server.port, receiveTimeout: 3)
        client.send(bytes)
        let answer = client.readAll()
        return (String(decoding: answer.bytes, as: UTF8.self), answer.closedByServer)
    }

    @Test(
        "Transfer-Encoding whose last coding is not chunked (once) is 400 and a close (RFC 9112 §6.3)",
        arguments: [
            ("chunked, gzip", "400"), ("gzip", "400"), ("chunked, chunked", "400"),
            ("chunked\r\nTransfer-Encoding: gzip", "400"),
            ("chunked", "501"), ("gzip, chunked", "501"),
        ])
    func transferEncoding(_ codings: String, _ status: String) throws {
        let request =
            "POST /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n"
            + "Transfer-Encoding: \(codings)\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
        let (text, closed) = try send(Array(request.utf8))
        #expect(text.statusLines == ["HTTP/1.1 \(status) \(status == "400" ? "Bad Request" : "Not Implemented")"])
        #expect(text.contains("Connection: close\r\n"))
        #expect(closed)
    }

    @Test("raw bytes above 0x7F in the target are 400 and a close (RFC 9112 §3)")
    func rawHighBytes() throws {
        let request =
            Array("GET /caf".utf8) + [0xC3, 0xA9]
            + Array(" HTTP/1.1\r\nHost: example.com\r\n\r\n".utf8)
        let (text, closed) = try send(request)
        #expect(text.statusLines == ["HTTP/1.1 400 Bad Request"])
        #expect(closed)
        // The same path percent-encoded, as browsers send it, is an ordinary 404 kept open.
        let client = try RawClient(port: server.port, receiveTimeout: 3)
        client.send("GET /caf%C3%A9 HTTP/1.1\r\nHost: example.com\r\n\r\n")
        #expect(RawClient.readResponse(client)?.statusLines == ["HTTP/1.1 404 Not Found"])
    }

    @Test("a fragment in the target is ignored: the file is served (RFC 9112 §3.2)")
    func fragment() throws {
        let client = try RawClient(port: server.port, receiveTimeout: 3)
        client.send("GET /.well-known/apple-app-site-association#frag HTTP/1.1\r\nHost: example.com\r\n\r\n")
        let answer = try #require(RawClient.readResponse(client))
        #expect(answer.statusLines == ["HTTP/1.1 200 OK"])
        #expect(answer.hasSuffix(SiteFixtures.oneAppAASA(path: "/buy/*")))
    }

    @Test("OPTIONS * is 405 with Allow: GET, HEAD and the connection kept (RFC 9112 §3.2.4)")
    func optionsAsterisk() throws {
        let client = try RawClient(port: server.port, receiveTimeout: 3)
        client.send("OPTIONS * HTTP/1.1\r\nHost: example.com\r\n\r\n")
        let answer = try #require(RawClient.readResponse(client))
        #expect(answer.statusLines == ["HTTP/1.1 405 Method Not Allowed"])
        #expect(answer.contains("Allow: GET, HEAD\r\n"))
        client.send("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n")
        #expect(RawClient.readResponse(client)?.statusLines == ["HTTP/1.1 200 OK"])
        // Any other method with the asterisk-form is malformed.
        let (text, closed) = try send(Array("GET * HTTP/1.1\r\nHost: example.com\r\n\r\n".utf8))
        #expect(text.statusLines == ["HTTP/1.1 400 Bad Request"])
        #expect(closed)
    }
}
