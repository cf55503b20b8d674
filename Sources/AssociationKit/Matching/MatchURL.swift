/// A URL prepared for matching: split into host, path, query, fragment and query items once,
/// then compared by every rule. Text typed with non-ASCII characters is percent-encoded the
/// way a browser sends it; everything else is kept exactly as written, because rules compare
/// the URL as written unless `percentEncoded` is false (spec §4).
public final class MatchURL {
    public struct InvalidURL: Error, CustomStringConvertible {
        public var description: String
    }

    public let string: String
    public let scheme: String
    /// Lower-cased, without port or trailing dot.
    public let host: String
    let path: URLText
    let query: URLText
    let fragment: URLText
    let queryItems: [(name: URLText, value: URLText)]

    public init(_ string: String) throws(InvalidURL) {
        self.string = string
        guard let colon = string.firstIndex(of: ":"), string[colon...].hasPrefix("://"), colon != string.startIndex else {
            throw InvalidURL(description: "\"\(string)\" is not an absolute URL (expected https://host/path)")
        }
        scheme = string[..<colon].lowercased()
        var rest = string[string.index(colon, offsetBy: 3)...]
        var fragmentText: Substring = ""
        if let hash = rest.firstIndex(of: "#") {
            fragmentText = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var queryText: Substring = ""
        if let question = rest.firstIndex(of: "?") {
            queryText = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard let host = HostName.normalize(String(authority)) else {
            throw InvalidURL(description: "\"\(string)\" has no valid host")
        }
        self.host = host
        path = URLText(PercentDecoding.encodeForURL(rest[slash...]), isPath: true)
        let encodedQuery = PercentDecoding.encodeForURL(queryText)
        query = URLText(encodedQuery)
        fragment = URLText(PercentDecoding.encodeForURL(fragmentText))
        // Items as NSURLQueryItem splits them: on `&`, name before the first `=`; an item
        // without `=` has the empty value (OBSERVED: `?flag` matches {"flag": ""}).
        queryItems = encodedQuery.split(separator: 0x26, omittingEmptySubsequences: true).map { item in
            if let equals = item.firstIndex(of: 0x3D) {
                return (URLText(Array(item[..<equals])), URLText(Array(item[item.index(after: equals)...])))
            }
            return (URLText(Array(item)), URLText([]))
        }
    }
}
