/// Conditional requests (RFC 9110 §13), read straight from the request bytes.
package enum RequestConditions {
    /// If-None-Match with weak comparison (RFC 9110 §13.1.2): `*`, or any listed entity-tag
    /// whose opaque part equals one of ours.
    /// `range` runs from the first field line's value to the end of the last one's; with more
    /// than one line the field lines between are read again, and only If-None-Match's count.
    package static func noneMatch(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, lines: Int, identity: ArraySlice<UInt8>,
        gzip: ArraySlice<UInt8>?
    ) -> Bool {
        if lines <= 1 { return noneMatch(buffer, range, identity: identity, gzip: gzip) }
        var matched = false
        forEachValue(named: "if-none-match", buffer, range) { value in
            if !matched { matched = noneMatch(buffer, value, identity: identity, gzip: gzip) }
        }
        return matched
    }

    /// The values of the field lines named `name` in `range`, which starts at the first one's
    /// value and ends at the last one's end (what the parser records for a repeated field).
    package static func forEachValue(
        named name: StaticString, _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
        _ body: (Range<Int>) -> Void
    ) {
        var valueStart = range.lowerBound
        while true {
            guard
                let lineFeed = HTTPRequestParser.first(HTTPRequestParser.lf, in: buffer, valueStart..<range.upperBound)
            else {
                body(trimmed(buffer, valueStart..<range.upperBound))
                return
            }
            body(trimmed(buffer, valueStart..<lineFeed))
            // The next line of that name; the parser has checked every line's syntax.
            var line = lineFeed + 1
            while true {
                guard let colon = HTTPRequestParser.first(UInt8(ascii: ":"), in: buffer, line..<range.upperBound) else {
                    return
                }
                if HTTPToken.equalsIgnoringCase(buffer, line..<colon, name) {
                    valueStart = colon + 1
                    break
                }
                guard let next = HTTPRequestParser.first(HTTPRequestParser.lf, in: buffer, colon..<range.upperBound)
                else { return }
                line = next + 1
            }
        }
    }

    /// `range` without optional whitespace and a line's closing CR around it.
    private static func trimmed(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        HTTPToken.trimmingWhitespace(buffer, range, lineEnd: true)
    }

    private static func noneMatch(
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
