/// A URL (`https://host:port/path?query`) or a bare authority with an optional path
/// (`example.com`, `[::1]:8443/x`) taken apart (RFC 3986 §3): the one parser of the URLs the
/// program fetches, of `probe`'s targets and of `--connect-to`. The authority is split by
/// `AuthoritySplit`, as the server splits a Host header.
public struct URLParts: Sendable, Equatable {
    /// Lower-cased; nil when the text has no `scheme://`.
    public var scheme: String?
    /// As written (an IPv6 literal without brackets).
    public var host: String
    public var port: Int?
    public var isIPLiteral: Bool
    /// The path and query as written, empty when none; the fragment is dropped (§3.5: it
    /// never goes to the server).
    public var pathAndQuery: String

    /// nil when `text` has no valid authority, or a byte a URL never holds raw (§2: a
    /// space, a control, a quote, non-ASCII), which could otherwise reach a request line.
    public init?(_ text: String) {
        var text = text
        guard let parts = text.withUTF8({ Self.split($0) }) else { return nil }
        self = parts
    }

    /// The request target: the path and query, `/` when there is no path (RFC 9110 §4.2.1).
    public var target: String {
        pathAndQuery.isEmpty || pathAndQuery.hasPrefix("?") ? "/" + pathAndQuery : pathAndQuery
    }

    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> URLParts? {
        guard bytes.allSatisfy(isURLByte) else { return nil }
        var start = 0
        var scheme: String?
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 2 < bytes.count,
            bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        {
            let name = UnsafeBufferPointer(rebasing: bytes[..<colon])
            guard let first = name.first, isLetter(first),
                name.allSatisfy({ isLetter($0) || AuthoritySplit.isDigit($0) || "+-.".utf8.contains($0) })
            else { return nil }
            scheme = String(decoding: name, as: UTF8.self).lowercased()
            start = colon + 3
        }
        var end = start
        while end < bytes.count, !"/?#".utf8.contains(bytes[end]) { end += 1 }
        guard let authority = AuthoritySplit(bytes, start..<end) else { return nil }
        var pathEnd = end
        while pathEnd < bytes.count, bytes[pathEnd] != UInt8(ascii: "#") { pathEnd += 1 }
        return URLParts(
            scheme: scheme, host: String(decoding: UnsafeBufferPointer(rebasing: bytes[authority.host]), as: UTF8.self),
            port: authority.port, isIPLiteral: authority.isIPLiteral,
            pathAndQuery: String(decoding: UnsafeBufferPointer(rebasing: bytes[end..<pathEnd]), as: UTF8.self))
    }

    private init(scheme: String?, host: String, port: Int?, isIPLiteral: Bool, pathAndQuery: String) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.isIPLiteral = isIPLiteral
        self.pathAndQuery = pathAndQuery
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")
    }

    /// The unreserved and reserved characters and `%` (§2.1-§2.3): printable ASCII but the
    /// space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|` and `}`.
    private static func isURLByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && !"\"<>\\^`{|}".utf8.contains(byte)
    }
}
