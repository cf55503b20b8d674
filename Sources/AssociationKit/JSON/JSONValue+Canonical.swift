extension JSONValue {
    /// One text per meaning: keys sorted (a repeated key counts once, the last, as Apple's
    /// parser reads it), no whitespace, strings escaped the one way, numbers by value. Two
    /// values that differ only in formatting, key order or escapes have the same canonical form.
    public var canonical: String { JSONWriter().text(canonicalNode) }

    /// The value to write for `canonical`, keys already in their order.
    var canonicalNode: JSONNode {
        switch kind {
        case .object:
            let members = (self.members ?? []).reversed().reduce(into: [(String, JSONValue)]()) { kept, member in
                if !kept.contains(where: { $0.0 == member.key }) { kept.append((member.key, member.value)) }
            }
            return .object(members.sorted { $0.0 < $1.0 }.map { (key: $0.0, value: $0.1.canonicalNode) })
        case .array(let elements): return .array(elements.map(\.canonicalNode))
        case .string(let text): return .string(text)
        case .number(let value, _): return .number(value)
        case .bool(let value): return .bool(value)
        case .null: return .null
        }
    }
}
