import Testing

@testable import AASALoop

/// The parser resumes a head where the last read stopped: the outcome must not depend on how
/// the bytes were split, and empty lines before a request line are bounded.
@Suite("request heads parsed across reads")
struct HeadScanTests {
    static var limits: HTTPLimits {
        var limits = HTTPLimits()
        limits.requestLineBytes = 64
        limits.headerBytes = 32
        return limits
    }

    /// Feeds `bytes` in pieces of `step`, keeping one `HeadScan` the way a connection does.
    static func resumed(_ bytes: [UInt8], step: Int, limits: HTTPLimits) -> String {
        var scan = HeadScan()
        var head = HTTPRequestHead()
        var length = 0
        while true {
            length = min(bytes.count, length + step)
            let result = bytes[..<length].withUnsafeBufferPointer {
                HTTPRequestParser(limits: limits).parse($0, from: 0, resuming: &scan, into: &head)
            }
            if case .incomplete = result, length < bytes.count { continue }
            return RequestConditionsTests.outcome(result)
        }
    }

    @Test(
        "a head split anywhere ends as the whole head does",
        arguments: [
            "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
            "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\nX: y\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "y", count: 17) + "\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "y", count: 18) + "\r\n\r\n",
            "GET /" + String(repeating: "p", count: 50) + " HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET / HTTP/1.1\nHost: a\n\n",
            "GET / HTTP/1.1\r\nHost: a\r\n",
            String(repeating: "\r\n", count: 40),
        ])
    func splitAnywhere(_ text: String) {
        let bytes = Array(text.utf8)
        let whole = RequestConditionsTests.outcome(HTTPRequestParserTests.parse(text, limits: Self.limits))
        for step in [1, 2, 3, 7, 16] {
            #expect(Self.resumed(bytes, step: step, limits: Self.limits) == whole, "pieces of \(step)")
        }
    }

    struct BlankLines: Sendable, CustomTestStringConvertible {
        var blank: Int
        var rest: String
        var outcome: String
        var testDescription: String { "\(blank) blank bytes, then \(rest.prefix(20).debugDescription)" }
    }

    @Test(
        "empty lines before the request line count toward its limit (RFC 9112 §2.2)",
        arguments: [
            BlankLines(blank: 2, rest: "GET / HTTP/1.1\r\nHost: a\r\n\r\n", outcome: "complete at 29"),
            BlankLines(blank: 48, rest: "GET / HTTP/1.1\r\nHost: a\r\n\r\n", outcome: "complete at 75"),
            // The request line (16 bytes with its line feed) no longer fits beside them.
            BlankLines(blank: 50, rest: "GET / HTTP/1.1\r\nHost: a\r\n\r\n", outcome: "failure 414"),
            BlankLines(blank: 64, rest: "", outcome: "incomplete"),
            BlankLines(blank: 65, rest: "", outcome: "failure 400"),
            BlankLines(blank: 4_000, rest: "", outcome: "failure 400"),
        ])
    func blankLines(_ row: BlankLines) {
        let text = String(repeating: "\n", count: row.blank) + row.rest
        #expect(RequestConditionsTests.outcome(HTTPRequestParserTests.parse(text, limits: Self.limits)) == row.outcome)
    }

    @Test("a head trickled a byte at a time is scanned once")
    func scannedOnce() {
        // 16 KiB of header bytes a byte at a time: with a rescan per read this is 134 M byte
        // comparisons, and the scan state says how far it got.
        var limits = HTTPLimits()
        limits.headerBytes = 16_384
        let bytes = Array(("GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "y", count: 16_000)).utf8)
        var scan = HeadScan()
        var head = HTTPRequestHead()
        for length in 1...bytes.count {
            let result = bytes[..<length].withUnsafeBufferPointer {
                HTTPRequestParser(limits: limits).parse($0, from: 0, resuming: &scan, into: &head)
            }
            guard case .incomplete = result else {
                Issue.record("\(length): \(RequestConditionsTests.outcome(result))")
                return
            }
        }
        #expect(scan.scanned == bytes.count)
        #expect(scan.lineStart == 25)
    }
}
