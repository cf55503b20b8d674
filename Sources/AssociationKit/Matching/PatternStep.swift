/// One step of a compiled pattern, over Unicode scalar values.
enum PatternStep: Sendable, Equatable {
    case literal(UInt32)
    /// `?`: exactly one character.
    case one
    /// `*`: any run of characters, possibly empty, crossing `/`.
    case star
    /// `$(name)`: one of a variable's values, by index into the pattern's alternative sets.
    case alternatives(Int)
}
