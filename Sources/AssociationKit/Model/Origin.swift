/// Where a model value came from: its location, and the offset of the JSON value whose
/// pointer names it. Pointers are rendered only for the diagnostics that need one, so reading
/// a file builds no pointer strings.
public struct Origin: Sendable, Hashable {
    public var location: SourceLocation
    /// The byte offset of the value, resolved to a JSON pointer against the document.
    public var valueOffset: Int

    public init(location: SourceLocation, valueOffset: Int) {
        self.location = location
        self.valueOffset = valueOffset
    }

    public init(_ value: JSONValue) {
        self.init(location: value.location, valueOffset: value.range.lowerBound)
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
