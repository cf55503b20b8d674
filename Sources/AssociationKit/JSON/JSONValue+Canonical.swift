extension JSONValue {
    /// One text per meaning: keys sorted (a repeated key counts once, the last, as Apple's
    /// parser reads it), no whitespace, strings escaped the one way, numbers by value. Two
    /// values that differ only in formatting, key order or escapes have the same canonical form.
    public var canonical: String {
        switch kind {
        case .object:
            let members = (self.members ?? []).reversed().reduce(into: [(String, JSONValue)]()) { kept, member in
                if !kept.contains(where: { $0.0 == member.key }) { kept.append((member.key, member.value)) }
            }
            return "{"
                + members.sorted { $0.0 < $1.0 }.map { Self.quoted($0.0) + ":" + $0.1.canonical }.joined(separator: ",")
                + "}"
        case .array(let elements): return "[" + elements.map(\.canonical).joined(separator: ",") + "]"
        case .string(let text): return Self.quoted(text)
        case .number(let value, _):
            return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }

    /// `text` as a JSON string literal (RFC 8259 §7): quotes, backslashes and control
    /// characters escaped, everything else as it is.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
