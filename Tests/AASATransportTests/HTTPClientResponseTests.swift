import Testing

@testable import AASATransport

/// The probe's response reader over bytes a hostile server might send: every number is
/// checked, every part bounded, and the outcome never depends on how the bytes arrive.
@Suite("HTTP client response reader")
struct HTTPClientResponseTests {
    static func parse(_ text: String, closed: Bool = true) -> Result<HTTPClientResponse?, HTTPClientFailure> {
        Result { () throws(HTTPClientFailure) in try HTTPClientResponse.parse(Array(text.utf8), closed: closed) }
    }

    static func failure(_ text: String) -> String? {
        if case .failure(let failure) = parse(text) { return failure.message }
        return nil
    }

    @Test(
        "chunk sizes that are negative, signed, too long or not hex are failures",
        arguments: ["-2", "+5", "7fffffffffffffff", "ffffffffffffffffffff", "0x10", "", " 5", "g"])
    func badChunkSizes(_ size: String) {
        let message = Self.failure("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\n{}\r\n0\r\n\r\n")
        #expect(message?.hasPrefix("malformed chunk size") == true, "\(size): \(message ?? "accepted")")
    }

    @Test(
        "Content-Length values that are negative, signed, listed or too long are failures",
        arguments: ["-9", "+5", "5, 6", "1e3", "99999999999999999999", ""])
    func badLengths(_ length: String) {
        let message = Self.failure("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n{}")
        #expect(message?.hasPrefix("invalid Content-Length") == true, "\(length): \(message ?? "accepted")")
    }

    @Test("chunked bodies with extensions decode; any split of the bytes gives the same answer")
    func chunkedAtEverySplit() throws {
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;name=value\r\n{}\r\n1\r\n\n\r\n0\r\n\r\n"
        let bytes = Array(text.utf8)
        for split in 0..<bytes.count {
            let partial = try HTTPClientResponse.parse(Array(bytes[..<split]), closed: false)
            #expect(partial == nil, "complete after \(split) bytes")
        }
        let response = try #require(try HTTPClientResponse.parse(bytes, closed: false))
        #expect(response.status == 200)
        #expect(response.body == Array("{}\n".utf8))
    }

    @Test("status lines other than HTTP/1.x with three digits are failures")
    func statusLines() throws {
        for line in [
            "HTTP/2 200 OK", "HTTP/1.1 20 OK", "HTTP/1.1 2000 OK", "HTTP/1.1 -20 OK", "ICY 200 OK", "HTTP/1.1 200OK",
        ] {
            #expect(
                Self.failure("\(line)\r\nContent-Length: 0\r\n\r\n")?.hasPrefix("not an HTTP/1.x status line") == true,
                "\(line)")
        }
        #expect(try Self.parse("HTTP/1.0 404\r\nContent-Length: 0\r\n\r\n").get()?.status == 404)
    }

    @Test("a short body, a long head and a body without framing past the bound are failures")
    func bounds() {
        #expect(Self.failure("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}") == "the body ended after 2 of 10 bytes")
        let longHead = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-A: b\r\n", count: 10_000)
        #expect(Self.failure(longHead)?.hasPrefix("the response head is over") == true)
        let endless = "HTTP/1.1 200 OK\r\n\r\n" + String(repeating: " ", count: HTTPClientResponse.bodyLimit + 1)
        #expect(Self.failure(endless)?.hasPrefix("the body is over") == true)
        #expect(Self.failure("HTTP/1.1 200 OK\r\nbroken header\r\n\r\n")?.hasPrefix("malformed header line") == true)
    }

    static let chunkedHead = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"

    @Test(
        "chunked framing (RFC 9112 §7.1): sizes, extensions, trailers",
        arguments: [
            ("2\r\n{}\r\n0\r\n\r\n", "{}"), ("2;a=b\r\n{}\r\n0\r\n\r\n", "{}"), ("2 \r\n{}\r\n0\r\n\r\n", "{}"),
            ("A\r\n0123456789\r\n0\r\n\r\n", "0123456789"), ("000000000000002\r\n{}\r\n0\r\n\r\n", "{}"),
            ("1\r\na\r\n1\r\nb\r\n0\r\nX-T: 1\r\n\r\n", "ab"), ("0\r\n\r\n", ""),
            ("2\r\n{}\r\n0;last\r\n\r\nignored after the end", "{}"),
        ])
    func chunked(_ wire: String, _ body: String) throws {
        let bytes = Array((Self.chunkedHead + wire).utf8)
        #expect(try Self.parse(Self.chunkedHead + wire).get()?.body == Array(body.utf8))
        // Byte by byte, the reader comes to the same answer at the same byte.
        var reader = HTTPResponseReader()
        var answer: HTTPClientResponse?
        for byte in bytes where answer == nil { answer = try reader.feed([byte]) }
        #expect(answer?.body == Array(body.utf8))
    }

    @Test(
        "chunked framing that is broken, too long or cut short is a failure",
        arguments: [
            ("2\r\n{}XX0\r\n\r\n", "a chunk is not followed by CRLF"),
            ("2\n{}\r\n0\r\n\r\n", "malformed chunk size"),
            ("0000000000000002\r\n{}\r\n0\r\n\r\n", "malformed chunk size"),
            ("1;" + String(repeating: "x", count: 1100) + "\r\n \r\n0\r\n\r\n", "a chunk-size line is over 1024 bytes"),
            ("1;" + String(repeating: "x", count: 1100), "a chunk-size line is over 1024 bytes"),
            ("2\r\n{", "the chunked body ended early"), ("2\r\n{}\r\n0\r\n", "the chunked body ended early"),
            ("0\r\n" + String(repeating: "X-T: 1\r\n", count: 9000) + "\r\n", "the trailer section is over 64 KiB"),
        ])
    func chunkedFailures(_ wire: String, _ message: String) {
        let failure = Self.failure(Self.chunkedHead + wire)
        #expect(failure?.hasPrefix(message) == true, "\(failure ?? "accepted")")
    }

    @Test("raw bytes are bounded: 1-byte chunks with 1 KiB size lines stop at the bound, wherever the bytes split")
    func rawBound() throws {
        let chunk = Array(("1;" + String(repeating: "x", count: 1000) + "\r\n \r\n").utf8)
        let message = "the response is over \(HTTPResponseReader.rawLimit / 1024) KiB on the wire"
        var reader = HTTPResponseReader()
        _ = try reader.feed(Array(Self.chunkedHead.utf8))
        var failure: HTTPClientFailure?
        var fed = 0
        while failure == nil && fed < 10 * HTTPResponseReader.rawLimit {
            do { _ = try reader.feed(chunk) } catch { failure = error }
            fed += chunk.count
        }
        #expect(failure?.message.hasPrefix(message) == true, "\(failure?.message ?? "none")")
        #expect(fed <= HTTPResponseReader.rawLimit + chunk.count)
        // Real framing of a full body fits: 256 KiB in chunks of 4 KiB.
        let part = "1000\r\n" + String(repeating: " ", count: 4096) + "\r\n"
        let body = String(repeating: part, count: HTTPClientResponse.bodyLimit / 4096) + "0\r\n\r\n"
        #expect(try Self.parse(Self.chunkedHead + body).get()?.body.count == HTTPClientResponse.bodyLimit)
    }
}
