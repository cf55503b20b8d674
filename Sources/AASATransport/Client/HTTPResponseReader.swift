/// Reads one HTTP/1.x response as its bytes arrive (RFC 9112): each byte is looked at once,
/// where the last read stopped, and everything is bounded before it is kept. The head by
/// `HTTPClientResponse.headLimit`, the body by `bodyLimit`, a chunk-size line by
/// `chunkLineLimit`, trailers by `headLimit`, and all bytes read, framing included, by
/// `rawLimit`: so a 1-byte chunk with a 1 KiB size line costs its share of one fixed bound,
/// not a buffer as large as the peer likes.
package struct HTTPResponseReader {
    /// Bytes read at most for one response: head, body and the framing around it (chunk-size
    /// lines, extensions, trailers). The allowance covers chunks of a few KiB each, as servers
    /// send them.
    package static let rawLimit = HTTPClientResponse.headLimit + HTTPClientResponse.bodyLimit + framingAllowance
    package static let framingAllowance = 64 * 1024

    private enum Phase {
        case head
        case length(remaining: Int)
        case untilClose
        case chunkSize
        case chunkData(remaining: Int)
        /// The CRLF after a chunk's data; `seen` of its two bytes read.
        case chunkEnd(seen: Int)
        case trailers
        case done
    }

    private var phase = Phase.head
    /// The head while it is incomplete, then the current chunk-size or trailer line.
    private var pending: [UInt8] = []
    /// Where the search for the head's end resumes (the bytes before cannot start it).
    private var searched = 0
    private var trailerBytes = 0
    private var response: HTTPClientResponse?
    private var body: [UInt8] = []
    package private(set) var rawCount = 0

    package init() {}

    /// Takes the next bytes: the response once complete (bytes after it are ignored; the
    /// request asked for `Connection: close`), nil while more are needed, or why it is unusable.
    package mutating func feed(_ bytes: some Collection<UInt8>) throws(HTTPClientFailure) -> HTTPClientResponse? {
        if case .done = phase { return try finished() }
        rawCount += bytes.count
        var rest = ArraySlice(bytes)
        if case .head = phase {
            pending += rest
            rest = []
            guard let end = headEnd() else {
                if pending.count > HTTPClientResponse.headLimit { throw Self.headTooLong }
                try checkRaw()
                return nil
            }
            rest = pending[end...]
            try startBody(head: pending[..<(end - 4)])
            pending = []
        }
        while !rest.isEmpty {
            if case .done = phase { break }
            try step(&rest)
        }
        if case .done = phase { return try finished() }
        try checkRaw()
        return nil
    }

    /// The server closed the connection: the response if it is complete or framed by the
    /// close, else why not.
    package mutating func finish() throws(HTTPClientFailure) -> HTTPClientResponse {
        switch phase {
        case .head:
            if pending.count > HTTPClientResponse.headLimit { throw Self.headTooLong }
            throw Self.failure(
                pending.isEmpty ? "the server closed without answering" : "no complete HTTP response head")
        case .untilClose, .done:
            phase = .done
            guard let response = try finished() else { throw Self.failure("no complete HTTP response head") }
            return response
        case .length(let remaining):
            throw Self.failure("the body ended after \(body.count) of \(body.count + remaining) bytes")
        case .chunkSize, .chunkData, .chunkEnd, .trailers:
            throw Self.failure("the chunked body ended early")
        }
    }

    /// The offset just past CRLF CRLF in `pending`, searching only the bytes not searched yet.
    private mutating func headEnd() -> Int? {
        var index = max(searched, 3)
        while index < pending.count {
            if pending[index] == 10, pending[index - 1] == 13, pending[index - 2] == 10, pending[index - 3] == 13 {
                return index + 1
            }
            index += 1
        }
        searched = index
        return nil
    }

    private func checkRaw() throws(HTTPClientFailure) {
        guard rawCount > Self.rawLimit else { return }
        throw Self.failure(
            "the response is over \(Self.rawLimit / 1024) KiB on the wire (head, body and framing; "
                + "the body is at most \(HTTPClientResponse.bodyLimit / 1024) KiB)")
    }

    private mutating func startBody(head: ArraySlice<UInt8>) throws(HTTPClientFailure) {
        guard head.count <= HTTPClientResponse.headLimit else { throw Self.headTooLong }
        let parsed = try HTTPClientResponse.head(head)
        response = parsed
        phase = try Self.framing(of: parsed)
    }

    /// How the body is framed: Transfer-Encoding, Content-Length or the close (RFC 9112 §6.3).
    private static func framing(of response: HTTPClientResponse) throws(HTTPClientFailure) -> Phase {
        if response.status == 204 || response.status == 304 { return .done }
        if let encoding = response.header("transfer-encoding") {
            guard encoding.lowercased().split(separator: ",").last?.trimmingCharacters(in: .whitespaces) == "chunked"
            else { throw failure("unsupported Transfer-Encoding \"\(encoding.prefix(80))\"") }
            return .chunkSize
        }
        let lengths = response.headers.filter { $0.name == "content-length" }.map(\.value)
        guard let first = lengths.first else { return .untilClose }
        guard let length = HTTPClientResponse.decimal(first), lengths.allSatisfy({ $0 == first }) else {
            throw failure("invalid Content-Length \"\(lengths.joined(separator: ", ").prefix(80))\"")
        }
        guard length <= HTTPClientResponse.bodyLimit else {
            throw failure(
                "Content-Length \(length) is over the \(HTTPClientResponse.bodyLimit / 1024) KiB read at most "
                    + "(Apple reads 128 KiB)")
        }
        return length == 0 ? .done : .length(remaining: length)
    }

    /// Consumes what the current phase takes from the front of `rest`.
    private mutating func step(_ rest: inout ArraySlice<UInt8>) throws(HTTPClientFailure) {
        switch phase {
        case .head, .done:
            rest = []
        case .length(let remaining):
            let taken = rest.prefix(remaining)
            body += taken
            rest = rest.dropFirst(taken.count)
            phase = remaining == taken.count ? .done : .length(remaining: remaining - taken.count)
        case .untilClose:
            guard body.count + rest.count <= HTTPClientResponse.bodyLimit else {
                throw Self.failure(
                    "the body is over the \(HTTPClientResponse.bodyLimit / 1024) KiB read at most (Apple reads 128 KiB)"
                )
            }
            body += rest
            rest = []
        case .chunkSize:
            guard let line = takeLine(&rest, limit: HTTPClientResponse.chunkLineLimit) else {
                if pending.count > HTTPClientResponse.chunkLineLimit {
                    throw Self.failure("a chunk-size line is over \(HTTPClientResponse.chunkLineLimit) bytes")
                }
                return
            }
            guard line.count <= HTTPClientResponse.chunkLineLimit else {
                throw Self.failure("a chunk-size line is over \(HTTPClientResponse.chunkLineLimit) bytes")
            }
            let size = try Self.chunkSize(line)
            guard size > 0 else {
                phase = .trailers
                return
            }
            guard size <= HTTPClientResponse.bodyLimit - body.count else {
                throw Self.failure(
                    "the chunked body is over the \(HTTPClientResponse.bodyLimit / 1024) KiB read at most "
                        + "(Apple reads 128 KiB)")
            }
            phase = .chunkData(remaining: size)
        case .chunkData(let remaining):
            let taken = rest.prefix(remaining)
            body += taken
            rest = rest.dropFirst(taken.count)
            phase = remaining == taken.count ? .chunkEnd(seen: 0) : .chunkData(remaining: remaining - taken.count)
        case .chunkEnd(let seen):
            guard let byte = rest.popFirst(), byte == (seen == 0 ? 13 : 10) else {
                throw Self.failure("a chunk is not followed by CRLF")
            }
            phase = seen == 0 ? .chunkEnd(seen: 1) : .chunkSize
        case .trailers:
            // Trailer fields, then an empty line (RFC 9112 §7.1.2); read, not kept.
            let before = rest.count
            let line = takeLine(&rest, limit: HTTPClientResponse.headLimit)
            trailerBytes += before - rest.count
            guard trailerBytes <= HTTPClientResponse.headLimit else {
                throw Self.failure("the trailer section is over \(HTTPClientResponse.headLimit / 1024) KiB")
            }
            if let line, line.isEmpty { phase = .done }
        }
    }

    /// One line ending in CRLF (without it), taken from `rest` and any earlier part held in
    /// `pending`; nil while its end has not arrived (what came is kept, up to `limit` + 1).
    private mutating func takeLine(_ rest: inout ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
        guard let newline = rest.firstIndex(of: 10) else {
            pending += rest.prefix(max(0, limit + 1 - pending.count))
            rest = []
            return nil
        }
        pending += rest[..<newline]
        rest = rest[(newline + 1)...]
        var line = pending
        pending = []
        // A bare LF is no line end here (RFC 9112 §7.1 asks for CRLF): kept, it makes the
        // chunk size malformed.
        if line.last == 13 { line.removeLast() } else { line.append(10) }
        return line
    }

    /// 1 to 15 hex digits (so it fits an Int), then nothing, extensions or whitespace.
    private static func chunkSize(_ line: [UInt8]) throws(HTTPClientFailure) -> Int {
        var size = 0
        var digits = 0
        for byte in line {
            guard let value = hexValue(byte) else { break }
            digits += 1
            if digits > 15 { break }
            size = size * 16 + value
        }
        let after = digits < line.count ? line[digits] : nil
        guard (1...15).contains(digits), after == nil || after == UInt8(ascii: ";") || after == 0x20 || after == 0x09
        else {
            throw failure("malformed chunk size \"\(String(decoding: line.prefix(40), as: UTF8.self))\"")
        }
        return size
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    /// The complete response, its body gunzipped when it was sent gzip.
    private func finished() throws(HTTPClientFailure) -> HTTPClientResponse? {
        guard var response else { return nil }
        response.wireBytes = body.count
        response.body = body
        if response.header("content-encoding")?.lowercased() == "gzip" {
            do {
                response.body = try Gzip.decompress(body, limit: HTTPClientResponse.bodyLimit)
            } catch {
                throw Self.failure("the gzip body does not decompress: \(error)")
            }
        }
        return response
    }

    private static var headTooLong: HTTPClientFailure {
        failure("the response head is over \(HTTPClientResponse.headLimit / 1024) KiB")
    }

    private static func failure(_ message: String) -> HTTPClientFailure {
        HTTPClientFailure(stage: .http, message: message)
    }
}
