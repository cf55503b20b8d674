import Foundation

/// One HTTP response as a client of ours (the probe, ACME) saw it, after undoing chunked
/// framing and gzip.
///
/// The bytes come from servers nobody here controls, so every number in them is checked
/// before it is used (a negative or overflowing length is a reported failure, never a trap)
/// and every part is bounded: the head by `headLimit`, the body, before and after gunzip, by
/// `bodyLimit` (twice the 128 KiB Apple reads, so an oversized file is still measured), and
/// all bytes read, framing included, by `HTTPResponseReader.rawLimit`.
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
    /// `HTTPResponseReader` does the work as bytes arrive; this is it over all of them at once.
    package static func parse(_ raw: [UInt8], closed: Bool) throws(HTTPClientFailure) -> HTTPClientResponse? {
        var reader = HTTPResponseReader()
        if let response = try reader.feed(raw) { return response }
        return closed ? try reader.finish() : nil
    }

    /// The status line and header fields of a complete head (without its final CRLF CRLF).
    package static func head(_ bytes: ArraySlice<UInt8>) throws(HTTPClientFailure) -> HTTPClientResponse {
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
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
        return HTTPClientResponse(status: status, headers: headers, body: [], wireBytes: 0)
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

    /// 1 to 18 decimal digits and nothing else (so it fits an Int).
    package static func decimal(_ text: String) -> Int? {
        let digits = text.utf8
        guard (1...18).contains(digits.count), digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else {
            return nil
        }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func failure(_ message: String) -> HTTPClientFailure {
        HTTPClientFailure(stage: .http, message: message)
    }
}
