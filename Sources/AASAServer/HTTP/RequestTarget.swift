/// Where a request points: the host it names and the path part of its target.
struct RequestTarget {
    var hostRange: Range<Int>?
    var pathRange: Range<Int>

    /// Origin-form `/path?query`, or absolute-form `http://host/path`, whose host then
    /// replaces the Host header (RFC 9112 §3.2.2).
    init?(_ buffer: UnsafeBufferPointer<UInt8>, head: HTTPRequestHead) {
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
        pathRange =
            slash < target.upperBound && buffer[slash] == UInt8(ascii: "/") ? slash..<target.upperBound : slash..<slash
    }

    /// The host as the site table keys it: lower-cased, without port or trailing dot. Nil
    /// when the value is not a host name at all, so no Host can name a path.
    static func hostKey(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        var end = range.upperBound
        var start = range.lowerBound
        guard start < end else { return nil }
        if buffer[start] == UInt8(ascii: "[") {
            // IPv6 literal: no site folder can be named after one.
            return nil
        }
        if let colon = (start..<end).first(where: { buffer[$0] == UInt8(ascii: ":") }) {
            guard (colon + 1..<end).allSatisfy({ HTTPToken.isDigit(buffer[$0]) }) else { return nil }
            end = colon
        }
        if end > start, buffer[end - 1] == UInt8(ascii: ".") { end -= 1 }
        guard end > start, end - start <= 253 else { return nil }
        // Lower-cased on the stack; most host names then fit a String's inline storage, so
        // the lookup key costs no allocation.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: end - start) { bytes -> String? in
            var previous: UInt8 = UInt8(ascii: ".")
            var count = 0
            while start < end {
                let byte = HTTPToken.lower(buffer[start])
                let allowed =
                    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || HTTPToken.isDigit(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                // Empty labels ("..", a leading ".") are not host names.
                guard allowed, !(byte == UInt8(ascii: ".") && previous == UInt8(ascii: ".")) else { return nil }
                bytes[count] = byte
                count += 1
                previous = byte
                start += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<count]), as: UTF8.self)
        }
    }
}
