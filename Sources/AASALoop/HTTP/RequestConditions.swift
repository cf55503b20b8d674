/// Conditional requests (RFC 9110 §13), read straight from the request bytes.
enum RequestConditions {
    /// If-None-Match with weak comparison (RFC 9110 §13.1.2): `*`, or any listed entity-tag
    /// whose opaque part equals one of ours.
    static func noneMatch(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, identity: ArraySlice<UInt8>, gzip: ArraySlice<UInt8>?
    ) -> Bool {
        var matched = false
        func equals(_ tag: Range<Int>, _ etag: ArraySlice<UInt8>) -> Bool {
            etag.count == tag.count && zip(tag, etag).allSatisfy { buffer[$0] == $1 }
        }
        HTTPToken.forEachListElement(buffer, range) { element in
            var tag = element
            if tag.count == 1 && buffer[tag.lowerBound] == UInt8(ascii: "*") {
                matched = true
                return
            }
            if tag.count > 2 && buffer[tag.lowerBound] == UInt8(ascii: "W")
                && buffer[tag.lowerBound + 1] == UInt8(ascii: "/")
            {
                tag = (tag.lowerBound + 2)..<tag.upperBound
            }
            if equals(tag, identity) || gzip.map({ equals(tag, $0) }) == true { matched = true }
        }
        return matched
    }
}
