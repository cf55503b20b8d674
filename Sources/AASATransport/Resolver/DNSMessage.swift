/// The few DNS messages the ACME pre-flight needs (RFC 1035 §4): a query for one name's A or
/// AAAA records, and the reading of its answer. Pure: bytes in, values out. An answer is read
/// defensively, since anyone on the path can forge one: every length is checked against the
/// message, compression pointers may only point backwards (so they cannot loop) and a name
/// is at most 255 bytes, so no answer can make the reader crash, spin or allocate much.
public enum DNSMessage {
    public enum RecordType: UInt16, Sendable {
        case a = 1
        case cname = 5
        case aaaa = 28
    }

    /// What one answer says about the question.
    public enum Answer: Equatable, Sendable {
        /// The addresses (4 or 16 bytes each), after the CNAME chain the answer holds; empty
        /// when the name exists without records of the type (NODATA).
        case addresses([[UInt8]])
        /// TC set (RFC 1035 §4.1.1): ask again over TCP.
        case truncated
        /// RCODE 3 (NXDOMAIN): the name does not exist.
        case noSuchName
        /// Any other RCODE (SERVFAIL, REFUSED, ...).
        case failed(rcode: Int)
        /// Not an answer to this question (another id or question, a query, a malformed
        /// message): ignored, the client keeps waiting for the real one.
        case unrelated(String)
    }

    /// The longest name in wire form (RFC 1035 §3.1) and the most CNAMEs followed.
    static let longestName = 255
    static let longestChain = 8

    /// A query (RD set, one question, class IN), or nil for a name that cannot be one:
    /// empty labels, a label over 63 bytes, over 255 bytes in all, or bytes outside
    /// letters, digits, `-` and `_`.
    public static func query(id: UInt16, name: String, type: RecordType) -> [UInt8]? {
        var message: [UInt8] = [UInt8(id >> 8), UInt8(id & 0xFF), 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]
        guard let encoded = encode(name) else { return nil }
        message += encoded
        message += [UInt8(type.rawValue >> 8), UInt8(type.rawValue & 0xFF), 0, 1]
        return message
    }

    /// `name` in wire form (labels, then the root's zero), lowercased.
    static func encode(_ name: String) -> [UInt8]? {
        var text = Array(name.utf8)
        if text.last == UInt8(ascii: ".") { text.removeLast() }
        guard !text.isEmpty else { return nil }
        var wire: [UInt8] = []
        for label in text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard (1...63).contains(label.count),
                label.allSatisfy({ isNameByte($0) })
            else { return nil }
            wire.append(UInt8(label.count))
            wire += label.map { lowercased($0) }
        }
        wire.append(0)
        return wire.count <= longestName ? wire : nil
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// Reads `message` as the answer to the query `id` for `name` and `type`.
    public static func answer(_ message: [UInt8], id: UInt16, name: String, type: RecordType) -> Answer {
        guard let question = encode(name) else { return .unrelated("the question is not a name") }
        guard message.count >= 12 else { return .unrelated("shorter than a header") }
        guard UInt16(message[0]) << 8 | UInt16(message[1]) == id else { return .unrelated("another id") }
        let flags = UInt16(message[2]) << 8 | UInt16(message[3])
        guard flags & 0x8000 != 0, (flags >> 11) & 0xF == 0 else { return .unrelated("not a response to a query") }
        guard UInt16(message[4]) << 8 | UInt16(message[5]) == 1 else { return .unrelated("not one question") }
        // The question first: an answer to another question is not this one's, whatever it says.
        var reader = Reader(message: message, offset: 12)
        guard let asked = reader.name(), let askedType = reader.u16(), let askedClass = reader.u16() else {
            return .unrelated("the question does not read")
        }
        guard asked == question, askedType == type.rawValue, askedClass == 1 else {
            return .unrelated("another question")
        }
        if flags & 0x0200 != 0 { return .truncated }
        let rcode = Int(flags & 0xF)
        if rcode == 3 { return .noSuchName }
        if rcode != 0 { return .failed(rcode: rcode) }
        let count = Int(UInt16(message[6]) << 8 | UInt16(message[7]))
        var records: [(owner: [UInt8], type: UInt16, data: Range<Int>, target: [UInt8]?)] = []
        for _ in 0..<count {
            guard let owner = reader.name(), let recordType = reader.u16(), let recordClass = reader.u16(),
                reader.skip(4), let length = reader.u16(), let data = reader.take(Int(length))
            else { return .unrelated("a record does not read") }
            guard recordClass == 1 else { continue }
            var target: [UInt8]?
            if recordType == RecordType.cname.rawValue {
                var inner = Reader(message: message, offset: data.lowerBound)
                guard let name = inner.name(), inner.offset == data.upperBound else {
                    return .unrelated("a CNAME does not read")
                }
                target = name
            }
            records.append((owner, recordType, data, target))
        }
        // The chain from the question's name, as far as this answer goes (RFC 1034 §3.6.2).
        var current = question
        for _ in 0..<longestChain {
            guard let next = records.first(where: { $0.owner == current && $0.target != nil })?.target,
                next != current
            else { break }
            current = next
        }
        let size = type == .a ? 4 : 16
        let addresses = records.filter { $0.owner == current && $0.type == type.rawValue && $0.data.count == size }
            .map { Array(message[$0.data]) }
        return .addresses(addresses)
    }

    /// A cursor over a message; every read checks the bounds.
    struct Reader {
        let message: [UInt8]
        var offset: Int

        mutating func u16() -> UInt16? {
            guard offset + 2 <= message.count else { return nil }
            defer { offset += 2 }
            return UInt16(message[offset]) << 8 | UInt16(message[offset + 1])
        }

        mutating func skip(_ count: Int) -> Bool {
            guard offset + count <= message.count else { return false }
            offset += count
            return true
        }

        mutating func take(_ count: Int) -> Range<Int>? {
            guard offset + count <= message.count else { return nil }
            defer { offset += count }
            return offset..<(offset + count)
        }

        /// A name in wire form, lowercased, with its compression pointers followed (RFC 1035
        /// §4.1.4); each pointer must point before the one that led to it, so a loop is
        /// impossible; nil for anything malformed or over 255 bytes.
        mutating func name() -> [UInt8]? {
            var wire: [UInt8] = []
            var position = offset
            var end: Int?
            var limit = position
            while true {
                guard position < message.count else { return nil }
                let length = Int(message[position])
                switch length & 0xC0 {
                case 0xC0:
                    guard position + 1 < message.count else { return nil }
                    let target = (length & 0x3F) << 8 | Int(message[position + 1])
                    if end == nil { end = position + 2 }
                    // Strictly backwards from the lowest point reached so far.
                    guard target < limit else { return nil }
                    limit = target
                    position = target
                case 0x00:
                    if length == 0 {
                        wire.append(0)
                        guard wire.count <= DNSMessage.longestName else { return nil }
                        offset = end ?? position + 1
                        return wire
                    }
                    guard position + 1 + length <= message.count else { return nil }
                    wire.append(UInt8(length))
                    wire += message[(position + 1)...(position + length)].map { DNSMessage.lowercased($0) }
                    guard wire.count < DNSMessage.longestName else { return nil }
                    position += 1 + length
                default:
                    // 0x40 and 0x80: extended label types (RFC 6891 §5) no answer here uses.
                    return nil
                }
            }
        }
    }
}
