/// A URL prepared for matching: split into host, path, query, fragment and query items once,
/// then compared by every rule. Text typed with non-ASCII characters is percent-encoded the
/// way a browser sends it; everything else is kept exactly as written, because rules compare
/// the URL as written unless `percentEncoded` is false.
public final class MatchURL {
    public struct InvalidURL: Error, CustomStringConvertible {
        public var description: String
    }

    public let string: String
    public let scheme: String
    /// Lower-cased, without port or trailing dot.
    public let host: String
    let path: URLText
    /// The path as written, for Android's rules (the empty path is `/`).
    let rawPath: URLText
    let query: URLText
    let fragment: URLText
    let queryItems: [(name: URLText, value: URLText)]
    /// Whether the URL has a `?` or a `#` at all: Android tells an empty part from none.
    let hasQuery: Bool
    let hasFragment: Bool
    private var pathSummaries: [PathSummary?] = [nil, nil, nil, nil]
    private var androidPathCache: [UInt16]?
    private var androidFragmentCache: [UInt16]??
    private var androidParametersCache: [[UInt16]]?

    /// The parts as Android's rules compare them (`AndroidURIParts`), each decoded on first use,
    /// so a request decided by path rules decodes only its path.
    var androidPath: [UInt16] {
        if let androidPathCache { return androidPathCache }
        let path = AndroidURIParts.decoded(rawPath.encoded)
        androidPathCache = path
        return path
    }

    var androidFragment: [UInt16]? {
        if let androidFragmentCache { return androidFragmentCache }
        let decoded = hasFragment ? AndroidURIParts.decoded(fragment.encoded) : nil
        androidFragmentCache = .some(decoded)
        return decoded
    }

    var androidParameters: [[UInt16]] {
        if let androidParametersCache { return androidParametersCache }
        let parameters = hasQuery ? AndroidURIParts.parameters(AndroidURIParts.decoded(query.encoded)) : []
        androidParametersCache = parameters
        return parameters
    }

    /// The filter facts of the path in one form, computed on first use.
    func pathSummary(_ form: URLForm) -> PathSummary {
        if let summary = pathSummaries[form.rawValue] { return summary }
        let summary = PathSummary(path.form(decoded: form.rawValue >= 2, folded: form.rawValue & 1 == 1))
        pathSummaries[form.rawValue] = summary
        return summary
    }

    public convenience init(_ string: String) throws(InvalidURL) {
        // Split on bytes: `:`, `/`, `?`, `#` and `@` are ASCII, so UTF-8 offsets are exact.
        let bytes = Array(string.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, bytes.count >= colon + 3,
            bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else {
            throw InvalidURL(description: "\"\(string)\" is not an absolute URL (expected https://host/path)")
        }
        var end = bytes.count
        var fragmentBytes: ArraySlice<UInt8>?
        if let hash = bytes[(colon + 3)...].firstIndex(of: UInt8(ascii: "#")) {
            fragmentBytes = bytes[(hash + 1)...]
            end = hash
        }
        var queryBytes: ArraySlice<UInt8>?
        if let question = bytes[(colon + 3)..<end].firstIndex(of: UInt8(ascii: "?")) {
            queryBytes = bytes[(question + 1)..<end]
            end = question
        }
        let slash = bytes[(colon + 3)..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
        var authorityStart = colon + 3
        if let at = bytes[authorityStart..<slash].lastIndex(of: UInt8(ascii: "@")) { authorityStart = at + 1 }
        guard let host = HostName.normalize(String(decoding: bytes[authorityStart..<slash], as: UTF8.self)) else {
            throw InvalidURL(description: "\"\(string)\" has no valid host")
        }
        self.init(
            string: string, scheme: String(decoding: bytes[..<colon], as: UTF8.self).lowercased(), host: host,
            path: bytes[slash..<end], query: queryBytes ?? [], fragment: fragmentBytes ?? [],
            hasQuery: queryBytes != nil,
            hasFragment: fragmentBytes != nil)
    }

    /// A request's path and query as they arrived, for `fallback.json`'s rules, which apply
    /// to every host of the site (no host, no string to build).
    public convenience init(requestPath path: UnsafeBufferPointer<UInt8>, query: UnsafeBufferPointer<UInt8>?) {
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        self.init(
            string: "", scheme: "https", host: "", path: path, query: query ?? none, fragment: none,
            hasQuery: query != nil, hasFragment: false)
    }

    init(
        string: String, scheme: String, host: String, path: some Collection<UInt8>, query: some Collection<UInt8>,
        fragment: some Collection<UInt8>, hasQuery: Bool, hasFragment: Bool
    ) {
        self.hasQuery = hasQuery
        self.hasFragment = hasFragment
        self.string = string
        self.scheme = scheme
        self.host = host
        let encodedPath = PercentDecoding.encodeForURL(path)
        self.path = URLText(encodedPath, isPath: true)
        rawPath = URLText(encodedPath.isEmpty ? [0x2F] : encodedPath)
        let encodedQuery = PercentDecoding.encodeForURL(query)
        self.query = URLText(encodedQuery)
        self.fragment = URLText(PercentDecoding.encodeForURL(fragment))
        // Items as NSURLQueryItem splits them: on `&`, name before the first `=`; an item
        // without `=` has the empty value (docs/association-files.md, "Query items": `?flag` matches {"flag": ""}).
        queryItems = encodedQuery.split(separator: 0x26, omittingEmptySubsequences: true).map { item in
            if let equals = item.firstIndex(of: 0x3D) {
                return (URLText(Array(item[..<equals])), URLText(Array(item[item.index(after: equals)...])))
            }
            return (URLText(Array(item)), URLText([]))
        }
    }
}
