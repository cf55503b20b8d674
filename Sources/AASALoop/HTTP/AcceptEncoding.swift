/// What the request's Accept-Encoding fields say about gzip, read field by field while the
/// head is parsed (repeated fields are one list, in order; RFC 9110 §5.3): the last mention
/// of `gzip` (or `x-gzip`, §8.4.1.3) decides, else `*`; a q-value of zero refuses (§12.5.3).
/// No field at all means identity only here.
public struct AcceptEncoding {
    private var gzip: Bool?
    private var wildcard: Bool?

    public var acceptsGzip: Bool { gzip ?? wildcard ?? false }

    /// Reads one field value, `buffer[value]`.
    package mutating func read(_ buffer: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) {
        HTTPToken.forEachListElement(buffer, value) { element in
            var nameEnd = element.lowerBound
            while nameEnd < element.upperBound, buffer[nameEnd] != UInt8(ascii: ";"), buffer[nameEnd] != 0x20,
                buffer[nameEnd] != 0x09
            { nameEnd += 1 }
            let name = element.lowerBound..<nameEnd
            let accepted = Self.qualityIsNonZero(buffer, nameEnd..<element.upperBound)
            if HTTPToken.equalsIgnoringCase(buffer, name, "gzip")
                || HTTPToken.equalsIgnoringCase(buffer, name, "x-gzip")
            {
                gzip = accepted
            } else if HTTPToken.equals(buffer, name, "*") {
                wildcard = accepted
            }
        }
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
}
