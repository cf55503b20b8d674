import Foundation

/// One HTTP response as a client of ours (the probe, ACME) saw it, after undoing chunked
/// framing and gzip.
///
/// The bytes come from servers nobody here controls, so every number in them is checked
/// before it is used (a negative or overflowing length is a reported failure, never a trap)
/// and every part is bounded: the head by `headLimit`, the body, before and after gunzip, by
/// `bodyLimit` (twice the 128 KiB Apple reads, so an oversized file is still measured).
public struct HTTPClientResponse: Sendable {
    public var status: Int
    /// Lower-cased names, in order.
    public var headers: [(name: String, value: String)]
    /// The decoded body (gunzipped when the server sent gzip).
    public var body: [UInt8]
    /// The body's size as sent (before gunzip).
    public var wireBytes: Int

    package static let headLimit = 64 * 1024
    package static let bodyLimit = 256 * 1024
    /// Longest chunk-size line read (RFC 9112 §7.1: size, extensions, CRLF).
    package static let chunkLineLimit = 1024

    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// Parses everything read so far: the response, nil while more bytes are needed (never
    /// nil when `closed`, the server having closed the connection), or why it is unusable.
    package static func parse(_ raw: [UInt8], closed: Bool) throws(HTTPClientFailure) -> HTTPClientResponse? {
        guard let headEnd = raw.firstRange(of: [13, 10, 13, 10]) else {
            if raw.count > headLimit { throw failure("the response head is over \(headLimit / 1024) KiB") }
            guard closed else { return nil }
            throw failure(raw.isEmpty ? "the server closed without answering" : "no complete HTTP response head")
        }
        guard headEnd.lowerBound <= headLimit else {
            throw failure("the response head is over \(headLimit / 1024) KiB")
        }
        let lines = raw[..<headEnd.lowerBound].split(separator: 10, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self)
        }
        let status = try statusCode(lines[0])
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex else {
                throw failure("malformed header line \"\(line.prefix(80))\"")
            }
            headers.append(
                (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = HTTPClientResponse(status: status, headers: headers, body: [], wireBytes: 0)
        let rest = raw[headEnd.upperBound...]
        guard let body = try response.framedBody(rest, closed: closed) else { return nil }
        response.wireBytes = body.count
        response.body = body
        if response.header("content-encoding")?.lowercased() == "gzip" {
            do {
                response.body = try Gzip.decompress(body, limit: bodyLimit)
            } catch {
                throw failure("the gzip body does not decompress: \(error)")
            }
        }
        return response
    }

    /// `HTTP/1.x SP 3DIGIT [SP reason]` (RFC 9112 §4).
    private static func statusCode(_ line: String) throws(HTTPClientFailure) -> Int {
        let bytes = Array(line.utf8)
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard bytes.count >= 12, bytes[..<7].elementsEqual("HTTP/1.".utf8), isDigit(bytes[7]), bytes[8] == 0x20,
            bytes[9..<12].allSatisfy(isDigit), bytes.count == 12 || bytes[12] == 0x20
        else { throw failure("not an HTTP/1.x status line: \"\(line.prefix(80))\"") }
        return bytes[9..<12].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// The body as framed by Transfer-Encoding, Content-Length or the close (RFC 9112 §6.3).
    private func framedBody(_ rest: ArraySlice<UInt8>, closed: Bool) throws(HTTPClientFailure) -> [UInt8]? {
        if status == 204 || status == 304 { return [] }
        if let encoding = header("transfer-encoding") {
            guard encoding.lowercased().split(separator: ",").last?.trimmingCharacters(in: .whitespaces) == "chunked"
            else {
                throw Self.failure("unsupported Transfer-Encoding \"\(encoding.prefix(80))\"")
            }
            guard let body = try Self.dechunk(rest) else {
                if closed { throw Self.failure("the chunked body ended early") }
                return nil
            }
            return body
        }
        let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
        if let first = lengths.first {
            guard let length = Self.decimal(first), lengths.allSatisfy({ $0 == first }) else {
                throw Self.failure("invalid Content-Length \"\(lengths.joined(separator: ", ").prefix(80))\"")
            }
            guard length <= Self.bodyLimit else {
                throw Self.failure(
                    "Content-Length \(length) is over the \(Self.bodyLimit / 1024) KiB read at most (Apple reads "
                        + "128 KiB)"
                )
            }
            if rest.count >= length { return Array(rest.prefix(length)) }
            if closed { throw Self.failure("the body ended after \(rest.count) of \(length) bytes") }
            return nil
        }
        guard rest.count <= Self.bodyLimit else {
            throw Self.failure(
                "the body is over the \(Self.bodyLimit / 1024) KiB read at most (Apple reads 128 KiB)")
        }
        return closed ? Array(rest) : nil
    }

    /// 1 to 18 decimal digits and nothing else (so it fits an Int).
    package static func decimal(_ text: String) -> Int? {
        let digits = text.utf8
        guard (1...18).contains(digits.count), digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else {
            return nil
        }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// Undoes chunked framing (RFC 9112 §7.1): the body, nil while incomplete, or a failure
    /// for a malformed or oversized chunk. Sizes have at most 15 hex digits, so they fit.
    package static func dechunk(_ bytes: ArraySlice<UInt8>) throws(HTTPClientFailure) -> [UInt8]? {
        var result: [UInt8] = []
        var index = bytes.startIndex
        while true {
            let window = bytes[index..<min(bytes.endIndex, index + chunkLineLimit)]
            guard let lineEnd = window.firstRange(of: [13, 10]) else {
                if window.count == chunkLineLimit { throw failure("a chunk-size line is over \(chunkLineLimit) bytes") }
                return nil
            }
            var size = 0
            var digits = 0
            var cursor = index
            while cursor < lineEnd.lowerBound, let value = hexValue(bytes[cursor]) {
                digits += 1
                if digits > 15 { break }
                size = size * 16 + value
                cursor += 1
            }
            let afterSize =
                cursor == lineEnd.lowerBound || bytes[cursor] == UInt8(ascii: ";") || bytes[cursor] == 0x20
                || bytes[cursor] == 0x09
            guard (1...15).contains(digits), afterSize else {
                let text = String(decoding: bytes[index..<lineEnd.lowerBound].prefix(40), as: UTF8.self)
                throw failure("malformed chunk size \"\(text)\"")
            }
            if size == 0 {
                // The last chunk, then trailer fields, then an empty line (RFC 9112 §7.1.2).
                let trailers = bytes[lineEnd.lowerBound...]
                guard trailers.firstRange(of: [13, 10, 13, 10]) != nil else {
                    if trailers.count > headLimit {
                        throw failure("the trailer section is over \(headLimit / 1024) KiB")
                    }
                    return nil
                }
                return result
            }
            guard size <= bodyLimit - result.count else {
                throw failure(
                    "the chunked body is over the \(bodyLimit / 1024) KiB read at most (Apple reads 128 KiB)")
            }
            let dataStart = lineEnd.upperBound
            guard bytes.endIndex - dataStart >= size + 2 else { return nil }
            guard bytes[dataStart + size] == 13, bytes[dataStart + size + 1] == 10 else {
                throw failure("a chunk is not followed by CRLF")
            }
            result += bytes[dataStart..<(dataStart + size)]
            index = dataStart + size + 2
        }
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    private static func failure(_ message: String) -> HTTPClientFailure {
        HTTPClientFailure(stage: .http, message: message)
    }
}
