/// A JSON value to write: what `JSONWriter` serializes and `JSONNodeEncoder` builds from an
/// `Encodable`. Unlike `JSONValue` (what was read, with positions), it keeps integers apart
/// from other numbers so they are written exactly, and an object's keys in the order given.
public indirect enum JSONNode: Sendable, Equatable {
    case object([(key: String, value: JSONNode)])
    case array([JSONNode])
    case string(String)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case bool(Bool)
    case null

    public static func == (left: JSONNode, right: JSONNode) -> Bool {
        switch (left, right) {
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.unsigned(let a), .unsigned(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }
}
