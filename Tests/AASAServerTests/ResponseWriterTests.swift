@preconcurrency import Glibc
import Testing

@testable import AASALoop
@testable import AASASiteServing

@Suite("What a handler writes and what the loop keeps unsent")
struct ResponseWriterTests {
    static func head(_ method: HTTPRequestHead.Method) -> HTTPRequestHead {
        var head = HTTPRequestHead()
        head.method = method
        head.isHTTP11 = true
        return head
    }

    /// Which of the server's own answers close the connection, and how.
    @Test(
        "errors: 404 and 405 keep the connection as asked, other 4xx and unparsed requests linger",
        arguments: [
            (HTTPStatus.notFound, ConnectionHeader.none, true, RequestOutcome.Closing.asAsked),
            (.methodNotAllowed, .none, true, .asAsked),
            (.notFound, .close, true, .linger),
            (.badRequest, .none, true, .linger),
            (.badRequest, .none, false, .linger),
        ])
    func errors(status: HTTPStatus, header: ConnectionHeader, parsed: Bool, closing: RequestOutcome.Closing) {
        let output = OutputBuffer()
        let dates = DateCache()
        dates.refresh()
        let writer = ResponseWriter(output: output, dates: dates)
        writer.connectionHeader = header
        let outcome = writer.error(status, for: parsed ? Self.head(.get) : nil)
        #expect(outcome.status == status)
        #expect(outcome.closing == closing)
        let text = String(decoding: output.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 \(status.rawValue) "))
        #expect(text.contains(closing == .asAsked ? "Connection: keep-alive\r\n" : "Connection: close\r\n"))
        #expect(text.hasSuffix("\r\n\r\n\(status.rawValue) \(status.reason)\n"))
        #expect(outcome.bodyBytes == "\(status.rawValue) \(status.reason)\n".utf8.count)
    }

    @Test("a HEAD's error answer has no body and logs none")
    func headHasNoBody() {
        let output = OutputBuffer()
        let writer = ResponseWriter(output: output, dates: DateCache())
        let outcome = writer.error(.notFound, for: Self.head(.head))
        #expect(outcome.bodyBytes == 0)
        #expect(String(decoding: output.bytes, as: UTF8.self).hasSuffix("\r\n\r\n"))
    }

    @Test("a connection keeps what a send left, borrowed body included, and gives it up as it is sent")
    func pendingOutput() {
        let file = PreparedFile(
            body: Array(repeating: UInt8(ascii: "x"), count: 20_000), lastModified: 0, cacheControl: "",
            contentType: "application/json")
        let connection = Connection(fd: -1, generation: 1, peer: sockaddr_storage())
        let head = Array("head".utf8)
        file.identity.body.withUnsafeBytes { body in
            head.withUnsafeBytes { connection.keep($0, then: BorrowedTail(body, of: file), after: 2) }
        }
        #expect(connection.pendingOutputCount == 20_002)
        connection.advance(by: 1_002)
        #expect(connection.pendingOutputCount == 19_000)
        #expect(connection.tail.count == 19_000)
        // Something queued behind a borrowed body copies it in: only the last stays borrowed.
        Array("next".utf8).withUnsafeBytes { connection.enqueue($0, then: BorrowedTail()) }
        #expect(connection.tail.bytes == nil)
        #expect(connection.pendingOutputCount == 19_004)
        connection.advance(by: 19_004)
        #expect(!connection.hasPendingOutput)
        // All of it went at once: nothing is kept.
        let other = Connection(fd: -1, generation: 2, peer: sockaddr_storage())
        head.withUnsafeBytes { other.keep($0, then: BorrowedTail(), after: 4) }
        #expect(!other.hasPendingOutput)
    }
}
