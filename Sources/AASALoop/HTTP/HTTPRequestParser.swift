@preconcurrency import Glibc

/// An incremental HTTP/1.x request-head parser over bytes (RFC 9112 §2–§5), strict where
/// leniency would let a malformed or smuggled request through, with limits on every part.
public struct HTTPRequestParser {
    let limits: HTTPLimits

    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")

    /// Parses the request head starting at `start` in `buffer` into `head` (which holds
    /// something only after `.complete`), from nothing scanned yet.
    func parse(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, into head: inout HTTPRequestHead)
        -> HTTPParseResult
    {
        var scan = HeadScan()
        return parse(buffer, from: start, resuming: &scan, into: &head)
    }

    /// Parses the request head starting at `start`, going on from `scan` (what earlier calls
    /// found in the same bytes, when more arrived since) and updating it while the head is
    /// incomplete. The head is parsed in full only once its end is there.
    func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, resuming scan: inout HeadScan,
        into head: inout HTTPRequestHead
    ) -> HTTPParseResult {
        let end: Int
        switch findHeadEnd(buffer, from: start, &scan) {
        case .complete(let headEnd)?: end = headEnd
        case .failure(let status)?: return .failure(status)
        case .incomplete?, nil: return .incomplete
        }
        let lineStart = start + scan.skipped
        let requestLineEnd = start + scan.requestLineEnd
        head = HTTPRequestHead()
        guard parseRequestLine(buffer, lineStart..<trimCR(buffer, requestLineEnd), into: &head) else {
            return .failure(.badRequest)
        }
        if case .failure(let status) = versionCheck(buffer, head) { return .failure(status) }
        var line = requestLineEnd + 1
        var count = 0
        while true {
            // The head ends in a line feed, so every line up to it ends in one.
            guard let lineFeed = findLineFeed(buffer, from: line, limit: end - line) else { break }
            let lineEnd = trimCR(buffer, lineFeed)
            if lineEnd == line { break }
            count += 1
            if count > limits.headerCount { return .failure(.requestHeaderFieldsTooLarge) }
            guard parseField(buffer, line..<lineEnd, into: &head) else { return .failure(.badRequest) }
            line = lineFeed + 1
        }
        return validate(head).map(HTTPParseResult.failure) ?? .complete(end: end)
    }

    /// Finds the empty line that ends the head (`.complete` with the index after it), a
    /// limit passed (`.failure`), or nil when more bytes are needed; `scan` remembers how far
    /// it looked. Empty lines before the request line are ignored (RFC 9112 §2.2) but count
    /// toward the request line's limit: the RFC asks a server to skip at least one, and
    /// skipping any number would let a client stream them for ever.
    @inline(__always)
    private func findHeadEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, _ scan: inout HeadScan)
        -> HTTPParseResult?
    {
        if scan.requestLineEnd < 0 {
            var lineStart = start + scan.skipped
            while lineStart < buffer.count, buffer[lineStart] == Self.cr || buffer[lineStart] == Self.lf {
                lineStart += 1
            }
            scan.skipped = lineStart - start
            if scan.skipped > limits.requestLineBytes { return .failure(.badRequest) }
            let lineLimit = limits.requestLineBytes - scan.skipped
            let from = max(lineStart, start + scan.scanned)
            guard let lineFeed = Self.first(Self.lf, in: buffer, from..<min(buffer.count, lineStart + lineLimit + 1))
            else {
                scan.scanned = buffer.count - start
                return buffer.count - lineStart > lineLimit ? .failure(.uriTooLong) : nil
            }
            scan.requestLineEnd = lineFeed - start
            scan.lineStart = lineFeed + 1 - start
            scan.scanned = scan.lineStart
        }
        let headLimit = start + scan.requestLineEnd + 1 + limits.headerBytes
        var cursor = start + scan.lineStart
        var from = max(cursor, start + scan.scanned)
        while true {
            guard let lineFeed = Self.first(Self.lf, in: buffer, from..<min(buffer.count, headLimit + 1)) else {
                scan.lineStart = cursor - start
                scan.scanned = buffer.count - start
                return buffer.count > headLimit ? .failure(.requestHeaderFieldsTooLarge) : nil
            }
            if lineFeed == cursor || (lineFeed == cursor + 1 && buffer[cursor] == Self.cr) {
                return .complete(end: lineFeed + 1)
            }
            cursor = lineFeed + 1
            from = cursor
        }
    }

    /// The first line feed in `buffer[start...]` within `limit + 1` bytes: memchr(3), which
    /// scans a word or a vector at a time (the head is scanned twice, so this is most of it).
    private func findLineFeed(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> Int? {
        Self.first(Self.lf, in: buffer, start..<min(buffer.count, start + limit + 1))
    }

    /// The index of the first `byte` in `buffer[range]`, by memchr(3).
    @inline(__always)
    public static func first(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, let base = buffer.baseAddress,
            let found = memchr(base + range.lowerBound, Int32(byte), range.count)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private func trimCR(_ buffer: UnsafeBufferPointer<UInt8>, _ lineFeed: Int) -> Int {
        lineFeed > 0 && buffer[lineFeed - 1] == Self.cr ? lineFeed - 1 : lineFeed
    }

    /// `method SP request-target SP HTTP-version` with single spaces (RFC 9112 §3).
    private func parseRequestLine(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into head: inout HTTPRequestHead
    ) -> Bool {
        let space = UInt8(ascii: " ")
        guard let firstSpace = Self.first(space, in: buffer, range),
            let secondSpace = Self.first(space, in: buffer, (firstSpace + 1)..<range.upperBound),
            Self.first(space, in: buffer, (secondSpace + 1)..<range.upperBound) == nil,
            firstSpace > range.lowerBound, secondSpace > firstSpace + 1, secondSpace < range.upperBound - 1
        else { return false }
        let methodRange = range.lowerBound..<firstSpace
        guard methodRange.allSatisfy({ HTTPToken.isTokenCharacter(buffer[$0]) }) else { return false }
        guard ByteClasses.isVisible(buffer, (firstSpace + 1)..<secondSpace) else { return false }
        // A fragment is the client's own (RFC 9112 §3.2 has none in a request-target, RFC 3986
        // §3.5): one sent anyway is dropped here, so the path is what routing sees.
        let targetEnd = Self.first(UInt8(ascii: "#"), in: buffer, (firstSpace + 1)..<secondSpace) ?? secondSpace
        let targetRange = (firstSpace + 1)..<targetEnd
        guard !targetRange.isEmpty else { return false }
        let versionRange = (secondSpace + 1)..<range.upperBound
        head.method =
            HTTPToken.equals(buffer, methodRange, "GET")
            ? .get : HTTPToken.equals(buffer, methodRange, "HEAD") ? .head : .other
        // The asterisk-form names the server itself, for OPTIONS only (RFC 9112 §3.2.4).
        if targetRange.count == 1 && buffer[targetRange.lowerBound] == UInt8(ascii: "*") {
            guard HTTPToken.equals(buffer, methodRange, "OPTIONS") else { return false }
            head.isAsteriskForm = true
        }
        head.methodRange = methodRange
        head.targetRange = targetRange
        head.isHTTP11 = Self.isHTTP11(buffer, versionRange)
        return true
    }

    /// HTTP/1.1, or HTTP/1 with a higher minor version: a server answers those as the highest
    /// 1.x it speaks, and the client, being conformant to 1.1, understands (RFC 9112 §2.3,
    /// RFC 9110 §2.5).
    private static func isHTTP11(_ buffer: UnsafeBufferPointer<UInt8>, _ version: Range<Int>) -> Bool {
        guard version.count == 8, HTTPToken.equals(buffer, version.lowerBound..<(version.lowerBound + 7), "HTTP/1.")
        else { return false }
        let minor = buffer[version.lowerBound + 7]
        return minor >= UInt8(ascii: "1") && minor <= UInt8(ascii: "9")
    }

    private func versionCheck(_ buffer: UnsafeBufferPointer<UInt8>, _ head: HTTPRequestHead) -> HTTPParseResult? {
        if head.isHTTP11 { return nil }
        let start = head.targetRange.upperBound + 1
        let lineEnd = findLineFeed(buffer, from: start, limit: 64).map { trimCR(buffer, $0) } ?? start
        let version = start..<lineEnd
        if HTTPToken.equals(buffer, version, "HTTP/1.0") { return nil }
        // HTTP-version = "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3); another major version is 505.
        let isWellFormed =
            version.count == 8 && HTTPToken.equals(buffer, version.lowerBound..<(version.lowerBound + 5), "HTTP/")
            && HTTPToken.isDigit(buffer[version.lowerBound + 5]) && buffer[version.lowerBound + 6] == UInt8(ascii: ".")
            && HTTPToken.isDigit(buffer[version.lowerBound + 7])
        return .failure(isWellFormed ? .httpVersionNotSupported : .badRequest)
    }

    /// `field-name ":" OWS field-value OWS` (RFC 9112 §5). Whitespace before the colon and
    /// obsolete line folding are rejected (§5.1, §5.2).
    private func parseField(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into head: inout HTTPRequestHead)
        -> Bool
    {
        guard let colon = Self.first(UInt8(ascii: ":"), in: buffer, range), colon > range.lowerBound else {
            return false
        }
        let name = range.lowerBound..<colon
        guard name.allSatisfy({ HTTPToken.isTokenCharacter(buffer[$0]) }) else { return false }
        let value = HTTPToken.trimmingWhitespace(buffer, (colon + 1)..<range.upperBound)
        guard ByteClasses.isFieldValue(buffer, value) else { return false }
        switch name.count {
        case 4 where HTTPToken.equalsIgnoringCase(buffer, name, "host"):
            head.hostRange = value
            head.hostCount += 1
        case 10 where HTTPToken.equalsIgnoringCase(buffer, name, "user-agent"):
            head.userAgentRange = value
        case 15 where HTTPToken.equalsIgnoringCase(buffer, name, "x-forwarded-for"):
            head.forwardedForRange = value
        case 10 where HTTPToken.equalsIgnoringCase(buffer, name, "connection"):
            HTTPToken.forEachListElement(buffer, value) { element in
                if HTTPToken.equalsIgnoringCase(buffer, element, "close") { head.connectionClose = true }
                if HTTPToken.equalsIgnoringCase(buffer, element, "keep-alive") { head.connectionKeepAlive = true }
            }
        case 13 where HTTPToken.equalsIgnoringCase(buffer, name, "if-none-match"):
            head.ifNoneMatchRange = head.ifNoneMatchRange.map { $0.lowerBound..<value.upperBound } ?? value
            head.ifNoneMatchLines += 1
        case 13 where HTTPToken.equalsIgnoringCase(buffer, name, "authorization"):
            head.authorizationRange = value
            head.authorizationCount += 1
        case 15 where HTTPToken.equalsIgnoringCase(buffer, name, "accept-language"):
            if head.acceptLanguageRange == nil { head.acceptLanguageRange = value }
        case 15 where HTTPToken.equalsIgnoringCase(buffer, name, "accept-encoding"):
            head.acceptEncoding.read(buffer, value)
        case 17 where HTTPToken.equalsIgnoringCase(buffer, name, "if-modified-since"):
            head.ifModifiedSinceRange = value
        case 14 where HTTPToken.equalsIgnoringCase(buffer, name, "content-length"):
            guard !value.isEmpty, value.count < 19, value.allSatisfy({ HTTPToken.isDigit(buffer[$0]) }) else {
                return false
            }
            let length = value.reduce(0) { $0 * 10 + Int(buffer[$1] - UInt8(ascii: "0")) }
            // Differing repeated lengths are a smuggling attempt (RFC 9112 §6.3 item 5).
            if let existing = head.contentLength, existing != length { return false }
            head.contentLength = length
        case 17 where HTTPToken.equalsIgnoringCase(buffer, name, "transfer-encoding"):
            head.transferEncoding.read(buffer, value)
        default:
            break
        }
        return true
    }

    /// Rules that need the whole head.
    private func validate(_ head: HTTPRequestHead) -> HTTPStatus? {
        // RFC 9112 §3.2: HTTP/1.1 requires exactly one Host; more than one is always an error.
        if head.hostCount > 1 || (head.isHTTP11 && head.hostCount == 0) { return .badRequest }
        if head.transferEncoding.isPresent {
            // RFC 9112 §6.1: both framing headers at once is a smuggling vector; so is a 1.0
            // request with Transfer-Encoding, whose framing is faulty. RFC 9112 §6.3: chunked
            // not last (or twice) leaves the body's length unknown: 400 and close.
            if head.contentLength != nil || !head.isHTTP11 || !head.transferEncoding.isChunkedOnce {
                return .badRequest
            }
            // Association files take no body; a chunked one cannot be skipped safely, so refuse it.
            return .notImplemented
        }
        if let length = head.contentLength, length > 0 { return .contentTooLarge }
        return nil
    }
}
