/// A JSON value that remembers where it came from: its location and its byte range in the
/// source, from which `pointer(at:)` renders the JSON pointer a diagnostic names.
public struct JSONValue: Sendable {
    public indirect enum Kind: Sendable {
        case object([JSONMember])
        case array([JSONValue])
        case string(String)
        case number(Double, literal: String)
        case bool(Bool)
        case null
    }

    public var kind: Kind
    public var location: SourceLocation
    /// Byte offsets of the value's text, `[start, end)`.
    public var range: Range<Int>

    public init(kind: Kind, location: SourceLocation, range: Range<Int>) {
        self.kind = kind
        self.location = location
        self.range = range
    }

    /// The JSON pointer of the deepest value that starts at or contains `offset`, found by
    /// binary search over each level's children (their ranges are in file order), so one
    /// pointer costs O(depth × log width) and copies nothing.
    public func pointer(at offset: Int) -> String {
        var pointer = ""
        var current = self
        while true {
            switch current.kind {
            case .object(let members):
                guard let index = Self.child(containing: offset, in: members, range: \.value.range) else {
                    return pointer
                }
                pointer = JSONPointer.appending(members[index].key, to: pointer)
                current = members[index].value
            case .array(let elements):
                guard let index = Self.child(containing: offset, in: elements, range: \.range) else { return pointer }
                pointer = JSONPointer.appending(index, to: pointer)
                current = elements[index]
            default:
                return pointer
            }
        }
    }

    private static func child<Child>(containing offset: Int, in children: [Child], range: (Child) -> Range<Int>) -> Int?
    {
        var low = 0
        var high = children.count
        while low < high {
            let middle = (low + high) / 2
            if range(children[middle]).upperBound <= offset { low = middle + 1 } else { high = middle }
        }
        return low < children.count && range(children[low]).contains(offset) ? low : nil
    }

    /// The name a person uses for this kind of value, for "expected X, found Y" messages.
    public var typeName: String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        }
    }

    public var stringValue: String? {
        if case .string(let value) = kind { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = kind { return value }
        return nil
    }

    public var isNull: Bool {
        if case .null = kind { return true }
        return false
    }

    public var numberValue: Double? {
        if case .number(let value, _) = kind { return value }
        return nil
    }

    /// The number when it is a whole number an `Int` holds exactly.
    public var intValue: Int? {
        guard case .number(let value, _) = kind, value == value.rounded(), abs(value) < 0x1p63 else { return nil }
        return Int(value)
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let values) = kind { return values }
        return nil
    }

    public var members: [JSONMember]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    /// The value of `key`; with duplicate keys the last one wins, as in Foundation's
    /// JSONSerialization, which is what Apple's devices parse the file with.
    public subscript(key: String) -> JSONValue? {
        members?.last(where: { $0.key == key })?.value
    }
}
