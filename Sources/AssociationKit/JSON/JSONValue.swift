/// A JSON value that remembers where it came from: its location, its byte range in the
/// source and its JSON pointer, so every diagnostic can name the exact place.
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
    public var pointer: String

    public init(kind: Kind, location: SourceLocation, range: Range<Int>, pointer: String) {
        self.kind = kind
        self.location = location
        self.range = range
        self.pointer = pointer
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
