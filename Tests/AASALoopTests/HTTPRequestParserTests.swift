import AssociationKit
import Testing

@testable import AASALoop
@testable import AASATransport

@Suite("HTTP request parser")
struct HTTPRequestParserTests {
    static func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPParseResult {
        parseHead(text, limits: limits).result
    }

    static func parseHead(_ text: String, limits: HTTPLimits = HTTPLimits()) -> (
        result: HTTPParseResult, head: HTTPRequestHead
    ) {
        let bytes = Array(text.utf8)
        var head = HTTPRequestHead()
        let result = bytes.withUnsafeBufferPointer { HTTPRequestParser(limits: limits).parse($0, from: 0, into: &head) }
        return (result, head)
    }

    static func status(_ text: String) -> HTTPStatus? {
        if case .failure(let status) = parse(text) { return status }
        return nil
    }

    struct Rejected: CustomTestStringConvertible, Sendable {
        var request: String
        var status: HTTPStatus
        var testDescription: String { "\(status.rawValue): \(request.prefix(40).debugDescription)" }
    }

    static let rejected: [Rejected] = [
        Rejected(request: "GARBAGE\r\n\r\n", status: .badRequest),
        Rejected(request: "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/1.1 extra\r\nHost: a\r\n\r\n", status: .badRequest),
        Rejected(request: "G@T / HTTP/1.1\r\nHost: a\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/1.1\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/1.1\r\nHost : a\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/1.1\r\nHost: a\r\nX-Folded: a\r\n continued\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/1.1\r\nHost: a\u{7F}\r\n\r\n", status: .badRequest),
        Rejected(
            request: "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
            status: .badRequest),
        Rejected(
            request: "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n", status: .contentTooLarge),
        Rejected(request: "GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", status: .notImplemented),
        // RFC 9112 §6.3: chunked not last, twice, or no coding at all: the length is unknown.
        Rejected(request: "GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", status: .badRequest),
        Rejected(
            request: "GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", status: .badRequest),
        Rejected(
            request: "GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n",
            status: .badRequest),
        Rejected(
            request: "GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n",
            status: .badRequest),
        Rejected(request: "GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked;x=1\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", status: .badRequest),
        // A coding before chunked is framed (chunked is last), just not one the server takes.
        Rejected(
            request: "GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, CHUNKED\r\n\r\n", status: .notImplemented),
        Rejected(
            request: "GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n",
            status: .notImplemented),
        // Raw bytes above 0x7F in the target (RFC 9112 §3, RFC 3986 §2: clients percent-encode).
        Rejected(request: "GET /caf\u{E9} HTTP/1.1\r\nHost: a\r\n\r\n", status: .badRequest),
        Rejected(
            request: "GET /.well-known/apple-app-site-association\u{80} HTTP/1.1\r\nHost: a\r\n\r\n",
            status: .badRequest),
        // The asterisk-form is for OPTIONS only (RFC 9112 §3.2.4); a target that is all fragment is none.
        Rejected(request: "GET * HTTP/1.1\r\nHost: a\r\n\r\n", status: .badRequest),
        Rejected(request: "GET #frag HTTP/1.1\r\nHost: a\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/2.0\r\nHost: a\r\n\r\n", status: .httpVersionNotSupported),
        Rejected(request: "GET / HTTP/3.1\r\nHost: a\r\n\r\n", status: .httpVersionNotSupported),
        Rejected(request: "GET / HTTP/1.x\r\nHost: a\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTP/1.10\r\nHost: a\r\n\r\n", status: .badRequest),
        Rejected(request: "GET / HTTQ/1.1\r\nHost: a\r\n\r\n", status: .badRequest),
        Rejected(
            request: "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n", status: .uriTooLong
        ),
        Rejected(
            request: "GET / HTTP/1.1\r\nHost: a\r\n" + (0..<70).map { "X-\($0): v\r\n" }.joined() + "\r\n",
            status: .requestHeaderFieldsTooLarge),
        Rejected(
            request: "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "b", count: 17000) + "\r\n\r\n",
            status: .requestHeaderFieldsTooLarge),
    ]

    @Test("malformed and over-limit requests get the right 4xx/5xx", arguments: rejected)
    func rejects(_ example: Rejected) {
        #expect(Self.status(example.request) == example.status)
    }

    @Test("incomplete heads wait for more bytes, even split anywhere")
    func incomplete() {
        let full = "GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\nUser-Agent: AASA-Bot/1.0.0\r\n\r\n"
        for cut in 0..<(full.utf8.count - 1) {
            let prefix = String(decoding: Array(full.utf8)[..<cut], as: UTF8.self)
            guard case .incomplete = Self.parse(prefix) else {
                Issue.record("a cut at \(cut) did not wait for more")
                return
            }
        }
        guard case .complete(let end) = Self.parse(full) else {
            Issue.record("the full head did not parse")
            return
        }
        #expect(end == full.utf8.count)
    }

    @Test("fields are read case-insensitively; pipelined requests parse one after another")
    func fieldsAndPipelining() throws {
        let text =
            "\r\nGET /a?x=1 HTTP/1.1\r\nHOST: Example.com\r\nconnection: Close\r\naccept-encoding: gzip\r\n\r\nHEAD "
            + "/b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            let parser = HTTPRequestParser(limits: HTTPLimits())
            var first = HTTPRequestHead()
            guard case .complete(let end) = parser.parse(buffer, from: 0, into: &first) else { throw Failure() }
            #expect(first.method == .get)
            #expect(first.isHTTP11)
            #expect(!first.wantsKeepAlive)
            #expect(String(decoding: buffer[first.hostRange!], as: UTF8.self) == "Example.com")
            #expect(String(decoding: buffer[first.targetRange], as: UTF8.self) == "/a?x=1")
            #expect(first.acceptEncoding.acceptsGzip)
            var second = HTTPRequestHead()
            guard case .complete(let secondEnd) = parser.parse(buffer, from: end, into: &second) else {
                throw Failure()
            }
            #expect(second.method == .head)
            #expect(!second.isHTTP11)
            #expect(second.wantsKeepAlive)
            #expect(secondEnd == bytes.count)
        }
    }

    @Test("Accept-Language: the first line's value, any case, without its whitespace; none without one")
    func acceptLanguage() {
        let text =
            "GET / HTTP/1.1\r\nHost: a.example\r\nACCEPT-language:  de-CH, de;q=0.9 \r\n"
            + "Accept-Language: fr\r\n\r\n"
        let (_, head) = Self.parseHead(text)
        let bytes = Array(text.utf8)
        #expect(head.acceptLanguageRange.map { String(decoding: bytes[$0], as: UTF8.self) } == "de-CH, de;q=0.9")
        #expect(Self.parseHead("GET / HTTP/1.1\r\nHost: a.example\r\n\r\n").head.acceptLanguageRange == nil)
    }

    @Test("HTTP/1 with a minor version above 1 is read as HTTP/1.1 (RFC 9112 §2.3), with 1.1's Host rule")
    func higherMinorVersion() {
        for minor in ["2", "9"] {
            let (result, head) = Self.parseHead("GET / HTTP/1.\(minor)\r\nHost: a\r\n\r\n")
            guard case .complete = result else {
                Issue.record("HTTP/1.\(minor) was refused: \(result)")
                continue
            }
            #expect(head.isHTTP11 && head.wantsKeepAlive)
            #expect(Self.status("GET / HTTP/1.\(minor)\r\n\r\n") == .badRequest)
        }
    }

    @Test("If-None-Match on several field lines is one list; other fields between are passed over")
    func ifNoneMatchLines() {
        let text =
            "GET / HTTP/1.1\r\nIf-None-Match: \"a\", \"b\"\r\nHost: x\r\nX-Tag: \"c\"\r\n"
            + "if-none-match:W/\"c\" \r\nIF-NONE-MATCH:   \r\nAccept: */*\r\n\r\n"
        let bytes = Array(text.utf8)
        var head = HTTPRequestHead()
        bytes.withUnsafeBufferPointer { buffer in
            guard case .complete = HTTPRequestParser(limits: HTTPLimits()).parse(buffer, from: 0, into: &head),
                let range = head.ifNoneMatchRange
            else {
                Issue.record("not parsed")
                return
            }
            #expect(head.ifNoneMatchLines == 3)
            var values: [String] = []
            RequestConditions.forEachValue(named: "if-none-match", buffer, range) {
                values.append(String(decoding: buffer[$0], as: UTF8.self))
            }
            #expect(values == [#""a", "b""#, #"W/"c""#, ""])
            func matches(_ tag: String) -> Bool {
                RequestConditions.noneMatch(buffer, range, lines: 3, identity: Array(tag.utf8)[...], gzip: nil)
            }
            #expect(matches(#""a""#) && matches(#""b""#) && matches(#""c""#))
            #expect(!matches(#""d""#))
        }
    }

    @Test("a fragment is dropped from the target (RFC 9112 §3.2); OPTIONS * is the asterisk-form")
    func fragmentAndAsterisk() {
        let text = "GET /.well-known/apple-app-site-association?q=1#frag HTTP/1.1\r\nHost: a\r\n\r\n"
        let (result, head) = Self.parseHead(text)
        guard case .complete = result else {
            Issue.record("not parsed: \(result)")
            return
        }
        let bytes = Array(text.utf8)
        #expect(
            String(decoding: bytes[head.targetRange], as: UTF8.self) == "/.well-known/apple-app-site-association?q=1")
        #expect(!head.isAsteriskForm)
        let options = Self.parseHead("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n")
        guard case .complete = options.result else {
            Issue.record("OPTIONS * not parsed: \(options.result)")
            return
        }
        #expect(options.head.isAsteriskForm && options.head.method == .other)
    }

    @Test("the head stays under 256 bytes, where memcpy takes its short path (HTTPRequestHead's field order)")
    func headSize() {
        #expect(MemoryLayout<HTTPRequestHead>.size < 256, "\(MemoryLayout<HTTPRequestHead>.size) bytes")
    }

    @Test("bare LF line endings are accepted (RFC 9112 §2.2)")
    func bareLineFeeds() {
        let (result, head) = Self.parseHead("GET / HTTP/1.1\nHost: a\n\n")
        guard case .complete = result else {
            Issue.record("not parsed")
            return
        }
        #expect(head.hostCount == 1)
    }

    struct Failure: Error {}
}

@Suite("Content negotiation and conditional requests")
struct RequestConditionsTests {
    static func gzip(_ values: [String]) -> Bool {
        let text = values.joined(separator: "\n")
        let bytes = Array(text.utf8)
        var acceptEncoding = AcceptEncoding()
        var start = 0
        for value in values {
            bytes.withUnsafeBufferPointer { acceptEncoding.read($0, start..<(start + value.utf8.count)) }
            start += value.utf8.count + 1
        }
        return acceptEncoding.acceptsGzip
    }

    @Test(
        "Accept-Encoding",
        arguments: [
            (["gzip"], true), (["gzip, deflate, br"], true), (["GZIP"], true), (["x-gzip"], true), (["*"], true),
            (["gzip;q=0"], false), (["gzip; q=0.0"], false), (["gzip;q=0.5"], true), (["identity"], false),
            (["*;q=0"], false),
            (["*", "gzip;q=0"], false), (["br", "gzip"], true), ([], false), (["deflate;q=1, gzip;q=0.001"], true),
        ])
    func acceptEncoding(_ values: [String], _ expected: Bool) {
        #expect(Self.gzip(values) == expected)
    }

    @Test("If-None-Match uses weak comparison against either variant's tag")
    func ifNoneMatch() {
        let (identity, gzip) = (Array("\"abc-1\"".utf8)[...], Array("\"abc-1-gz\"".utf8)[...])
        for (header, expected) in [
            ("\"abc-1\"", true), ("W/\"abc-1-gz\"", true), ("\"x\", \"abc-1\"", true), ("*", true), ("\"abc\"", false),
            ("abc-1", false),
        ] {
            let bytes = Array(header.utf8)
            let matched = bytes.withUnsafeBufferPointer {
                RequestConditions.noneMatch($0, 0..<bytes.count, lines: 1, identity: identity, gzip: gzip)
            }
            #expect(matched == expected, "\(header)")
        }
    }

    /// A summary that `HTTPParseResult` lacks Equatable for.
    static func outcome(_ result: HTTPParseResult) -> String {
        switch result {
        case .complete(let end): "complete at \(end)"
        case .incomplete: "incomplete"
        case .failure(let status): "failure \(status.rawValue)"
        }
    }

    @Test(
        "heads ending right at the size limits: every prefix is incomplete or gives the whole head's answer",
        arguments: [
            // The blank line's LF at exactly the header limit (found by fuzzing: 431 early, then complete).
            "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "y", count: 17) + "\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "y", count: 18) + "\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "y", count: 16) + "\r\n\r\n",
            "GET  / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "y", count: 16) + "\r\n\r\n",
            "GET /" + String(repeating: "p", count: 49) + " HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET /" + String(repeating: "p", count: 50) + " HTTP/1.1\r\nHost: a\r\n\r\n",
        ])
    func limitBoundaries(_ text: String) {
        var limits = HTTPLimits()
        limits.requestLineBytes = 64
        limits.headerBytes = 32
        let bytes = Array(text.utf8)
        let whole = Self.outcome(HTTPRequestParserTests.parse(text, limits: limits))
        for length in 0..<bytes.count {
            var head = HTTPRequestHead()
            let partial = bytes[..<length].withUnsafeBufferPointer {
                HTTPRequestParser(limits: limits).parse($0, from: 0, into: &head)
            }
            let summary = Self.outcome(partial)
            #expect(
                summary == "incomplete" || summary == whole,
                "\(length) of \(bytes.count) bytes: \(summary), whole: \(whole)")
        }
    }

    @Test("Host values become table keys, or nothing")
    func hostKeys() {
        for (raw, expected) in [
            ("Example.COM", "example.com"), ("example.com.", "example.com"), ("example.com:8443", "example.com"),
            ("../../etc", nil), ("a/b", nil), ("", nil), ("[::1]:80", nil), ("a..b", nil), ("example.com:80x", nil),
            (".", nil),
        ] as [(String, String?)] {
            let bytes = Array(raw.utf8)
            let key = bytes.withUnsafeBufferPointer { HostName.key($0, 0..<bytes.count) }
            #expect(key == expected, "\(raw)")
        }
    }

    @Test("request counts: each status's slot is its place in allCases, so a count reads back as its status")
    func countSlots() {
        #expect(HTTPStatus.allCases.enumerated().allSatisfy { $0.element.slot == $0.offset })
        var counts = RequestCounts(paths: 2)
        counts.add(path: 1, status: .notModified)
        counts.add(path: nil, status: .httpVersionNotSupported)
        counts.add(path: nil, status: .httpVersionNotSupported)
        let labels = ["/a", "/apple-app-site-association"]
        let read = counts.nonZero(labels: labels).map { "\($0.path) \($0.status) \($0.count)" }
        #expect(read == ["/apple-app-site-association 304 1", "other 505 2"])
        // A sum starts with no room and takes the room of what it adds.
        var sum = RequestCounts()
        sum.add(counts)
        sum.add(counts)
        #expect(sum.nonZero(labels: labels).map(\.count) == [2, 4])
    }
}

@Suite("Byte classes checked a word at a time")
struct ByteClassesTests {
    @Test("every byte value at every position of a 19-byte run agrees with the byte-by-byte rule")
    func agreesWithBytewiseRules() {
        let visible = { (byte: UInt8) in byte > 0x20 && byte < 0x7F }
        let fieldValue = { (byte: UInt8) in (byte >= 0x20 || byte == 0x09) && byte != 0x7F }
        for filler in [UInt8(ascii: "a"), 0x80, 0xFF] {
            for byte in UInt8.min...UInt8.max {
                for position in 0..<19 {
                    var bytes = [UInt8](repeating: filler, count: 21)
                    bytes[position + 1] = byte
                    bytes.withUnsafeBufferPointer { buffer in
                        // Offset by one: unaligned words, and a neighbour outside the range.
                        let range = 1..<20
                        #expect(
                            ByteClasses.isVisible(buffer, range) == (visible(byte) && visible(filler)),
                            "\(byte) at \(position)")
                        #expect(ByteClasses.isFieldValue(buffer, range) == fieldValue(byte), "\(byte) at \(position)")
                    }
                }
            }
        }
    }
}
