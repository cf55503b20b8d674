/// Where a request points: the host it names and the path part of its target.
public struct RequestTarget {
    package var hostRange: Range<Int>?
    package var pathRange: Range<Int>

    /// Origin-form `/path?query`, or absolute-form `http://host/path`, whose host then
    /// replaces the Host header (RFC 9112 §3.2.2).
    public init?(_ buffer: UnsafeBufferPointer<UInt8>, head: HTTPRequestHead) {
        let target = head.targetRange
        hostRange = head.hostRange
        if buffer[target.lowerBound] == UInt8(ascii: "/") {
            pathRange = target
            return
        }
        let schemeLength: Int
        if target.count > 7
            && HTTPToken.equalsIgnoringCase(buffer, target.lowerBound..<(target.lowerBound + 7), "http://")
        {
            schemeLength = 7
        } else if target.count > 8
            && HTTPToken.equalsIgnoringCase(buffer, target.lowerBound..<(target.lowerBound + 8), "https://")
        {
            schemeLength = 8
        } else {
            return nil
        }
        let authorityStart = target.lowerBound + schemeLength
        var slash = authorityStart
        while slash < target.upperBound, buffer[slash] != UInt8(ascii: "/"), buffer[slash] != UInt8(ascii: "?") {
            slash += 1
        }
        hostRange = authorityStart..<slash
        // An empty path may still have a query (RFC 3986 §3.3, path-abempty): kept for fallback.json.
        pathRange = slash..<target.upperBound
    }
}
