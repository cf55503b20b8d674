/// Where a model value came from: its location and JSON pointer in the file.
public struct Origin: Sendable, Hashable {
    public var location: SourceLocation
    public var pointer: String

    public init(location: SourceLocation, pointer: String) {
        self.location = location
        self.pointer = pointer
    }

    public init(_ value: JSONValue) {
        self.init(location: value.location, pointer: value.pointer)
    }
}

/// A value of the model together with where it was written.
public struct Located<Value: Sendable>: Sendable {
    public var value: Value
    public var origin: Origin

    public init(_ value: Value, _ origin: Origin) {
        self.value = value
        self.origin = origin
    }
}
