/// Content negotiation and conditional requests, read straight from the request bytes.
enum RequestConditions {
    /// Whether the client accepts gzip: `gzip` (or `x-gzip`, RFC 9110 §8.4.1.3) or `*` with a
    /// non-zero q-value, and not refused with `gzip;q=0` (RFC 9110 §12.5.3).
    static func acceptsGzip(_ buffer: UnsafeBufferPointer<UInt8>, _ ranges: FieldRanges) -> Bool {
        var gzip: Bool?
        var wildcard: Bool?
        ranges.forEachRange { range in
            HTTPToken.forEachListElement(buffer, range) { element in
                var nameEnd = element.lowerBound
                while nameEnd < element.upperBound, buffer[nameEnd] != UInt8(ascii: ";"), buffer[nameEnd] != 0x20,
                    buffer[nameEnd] != 0x09
                { nameEnd += 1 }
                let name = element.lowerBound..<nameEnd
                let accepted = qualityIsNonZero(buffer, nameEnd..<element.upperBound)
                if HTTPToken.equalsIgnoringCase(buffer, name, "gzip")
                    || HTTPToken.equalsIgnoringCase(buffer, name, "x-gzip")
                {
                    gzip = accepted
                } else if HTTPToken.equals(buffer, name, "*") {
                    wildcard = accepted
                }
            }
        }
        return gzip ?? wildcard ?? false
    }

    /// `;q=0`, `;q=0.0`, `;q=0.000` mean "not acceptable"; anything else (or no q) accepts.
    private static func qualityIsNonZero(_ buffer: UnsafeBufferPointer<UInt8>, _ parameters: Range<Int>) -> Bool {
        var index = parameters.lowerBound
        while index < parameters.upperBound {
            if HTTPToken.lower(buffer[index]) == UInt8(ascii: "q") {
                var cursor = index + 1
                while cursor < parameters.upperBound, buffer[cursor] == 0x20 { cursor += 1 }
                guard cursor < parameters.upperBound, buffer[cursor] == UInt8(ascii: "=") else {
                    index += 1
                    continue
                }
                cursor += 1
                while cursor < parameters.upperBound, buffer[cursor] == 0x20 { cursor += 1 }
                var sawNonZero = false
                while cursor < parameters.upperBound,
                    HTTPToken.isDigit(buffer[cursor]) || buffer[cursor] == UInt8(ascii: ".")
                {
                    if buffer[cursor] > UInt8(ascii: "0") && buffer[cursor] <= UInt8(ascii: "9") { sawNonZero = true }
                    cursor += 1
                }
                return sawNonZero
            }
            index += 1
        }
        return true
    }

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
