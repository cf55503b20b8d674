/// One DER element (X.690 §8.1): its tag and where its content lies in the bytes. Definite
/// lengths of at most three octets only, which is every certificate and key the server reads;
/// anything else is nil, and the caller leaves the bytes to OpenSSL.
struct DERElement {
    let tag: UInt8
    let content: Range<Int>
    /// The offset just past the element.
    var end: Int { content.upperBound }

    /// The element at `offset`, which must end by `limit`.
    init?(_ bytes: [UInt8], at offset: Int, within limit: Int) {
        guard offset >= 0, offset + 2 <= limit, limit <= bytes.count else { return nil }
        tag = bytes[offset]
        var length = Int(bytes[offset + 1])
        var start = offset + 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count >= 1, count <= 3, start + count <= limit else { return nil }
            length = bytes[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
            start += count
        }
        guard start + length <= limit else { return nil }
        content = start..<start + length
    }

    /// The elements inside a constructed element's content.
    static func children(_ bytes: [UInt8], _ range: Range<Int>) -> [DERElement]? {
        var found: [DERElement] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard let next = DERElement(bytes, at: offset, within: range.upperBound) else { return nil }
            found.append(next)
            offset = next.end
        }
        return found
    }
}
