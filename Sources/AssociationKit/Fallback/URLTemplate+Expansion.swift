extension URLTemplate {
    /// Bytes kept as they are in an expanded path: RFC 3986 §3.3 `pchar` and `/`, less `%`
    /// (kept only as the start of an escape). Everything else, `\`, quotes, `<`, spaces,
    /// controls and non-ASCII included, is percent-encoded, so an expansion is always a path
    /// of the template's host and text that needs no escaping in a header.
    static let pathBytes: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&()*+,;=:@/".utf8 {
            table[Int(byte)] = true
        }
        return table
    }()

    /// The same for a query (RFC 3986 §3.4: `pchar`, `/` and `?`).
    static let queryBytes: [Bool] = {
        var table = pathBytes
        table[Int(UInt8(ascii: "?"))] = true
        return table
    }()

    static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Writes the destination for a request path and query (without its `?`) through `put`:
    /// the template's origin, its literals, and the placeholders percent-encoded. An empty
    /// path (an absolute-form target without one) is `/`.
    @inline(__always)
    public func expand(
        path: UnsafeBufferPointer<UInt8>, query: UnsafeBufferPointer<UInt8>?,
        _ put: (UnsafeRawBufferPointer) -> Void
    ) {
        origin.withUnsafeBytes(put)
        for part in parts {
            switch part {
            case .literal(let bytes):
                bytes.withUnsafeBytes(put)
            case .path: Self.expandPath(path, put)
            case .query: Self.expandQuery(query, put)
            }
        }
    }

    /// A request's own URL on `origin` (`https://HOST`): its path and query encoded as a
    /// template's placeholders are, with no template to parse.
    @inline(__always)
    public static func expandLink(
        origin: [UInt8], path: UnsafeBufferPointer<UInt8>, query: UnsafeBufferPointer<UInt8>?,
        _ put: (UnsafeRawBufferPointer) -> Void
    ) {
        origin.withUnsafeBytes(put)
        expandPath(path, put)
        expandQuery(query, put)
    }

    /// `{path}`: an empty path (an absolute-form target without one) is `/`.
    @inline(__always)
    static func expandPath(_ path: UnsafeBufferPointer<UInt8>, _ put: (UnsafeRawBufferPointer) -> Void) {
        if path.isEmpty {
            slash.withUnsafeBytes(put)
        } else {
            encode(path, pathBytes, put)
        }
    }

    /// `{query}`: `?` and the query, or nothing without one.
    @inline(__always)
    static func expandQuery(_ query: UnsafeBufferPointer<UInt8>?, _ put: (UnsafeRawBufferPointer) -> Void) {
        guard let query else { return }
        questionMark.withUnsafeBytes(put)
        encode(query, queryBytes, put)
    }

    /// The destination as text, for `match` and the status page.
    public func expand(path: [UInt8], query: [UInt8]?) -> String {
        var result: [UInt8] = []
        path.withUnsafeBufferPointer { pathBuffer in
            if let query {
                query.withUnsafeBufferPointer { queryBuffer in
                    expand(path: pathBuffer, query: queryBuffer) { result += $0 }
                }
            } else {
                expand(path: pathBuffer, query: nil) { result += $0 }
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    static let slash: [UInt8] = [UInt8(ascii: "/")]
    static let questionMark: [UInt8] = [UInt8(ascii: "?")]

    /// Runs of allowed bytes go out as they are; any other byte as `%XX`. A `%` followed by
    /// two hex digits is an escape already and is kept.
    private static func encode(
        _ bytes: UnsafeBufferPointer<UInt8>, _ allowed: [Bool], _ put: (UnsafeRawBufferPointer) -> Void
    ) {
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if allowed[Int(byte)]
                || (byte == UInt8(ascii: "%") && index + 2 < bytes.count && isHex(bytes[index + 1])
                    && isHex(bytes[index + 2]))
            {
                index += 1
                continue
            }
            if index > start { put(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<index])) }
            let escaped: (UInt8, UInt8, UInt8) = (
                UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]
            )
            withUnsafeBytes(of: escaped) { put($0) }
            index += 1
            start = index
        }
        if index > start { put(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<index])) }
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }
}
