/// A reader for the part of Protocol Buffers' text format that Google's Digital Asset Links
/// compatibility tests are written in (`compatibility-tests/v1/*.pb`): `name: value`,
/// `name { … }` or `name: { … }`, quoted strings (adjacent ones joined), identifiers, numbers,
/// `[a, b]` lists and `#` comments. Fields keep their order; a repeated field appears repeatedly.
struct ProtoText {
    indirect enum Value {
        case scalar(String)
        case message([(name: String, value: Value)])
        case list([Value])
    }

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    private let bytes: [UInt8]
    private var index = 0

    /// The top-level fields of `text`.
    static func parse(_ text: String) throws -> [(name: String, value: Value)] {
        var reader = ProtoText(bytes: Array(text.utf8))
        return try reader.fields(until: nil)
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "#") {
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r")].contains(
                bytes[index])
            {
                index += 1
            } else {
                return
            }
        }
    }

    private mutating func fields(until close: UInt8?) throws -> [(name: String, value: Value)] {
        var fields: [(name: String, value: Value)] = []
        while true {
            skipSpace()
            guard index < bytes.count else {
                if close != nil { throw Invalid(description: "unterminated message") }
                return fields
            }
            if let close, bytes[index] == close {
                index += 1
                return fields
            }
            let name = word()
            guard !name.isEmpty else { throw Invalid(description: "a field name expected at byte \(index)") }
            skipSpace()
            if index < bytes.count && bytes[index] == UInt8(ascii: ":") {
                index += 1
                skipSpace()
            }
            fields.append((name, try value()))
            skipSpace()
            if index < bytes.count && (bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: ";")) {
                index += 1
            }
        }
    }

    private mutating func value() throws -> Value {
        guard index < bytes.count else { throw Invalid(description: "a value expected at the end") }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "<"):
            let close = bytes[index] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: ">")
            index += 1
            return .message(try fields(until: close))
        case UInt8(ascii: "["):
            index += 1
            var values: [Value] = []
            while true {
                skipSpace()
                guard index < bytes.count else { throw Invalid(description: "unterminated list") }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .list(values)
                }
                values.append(try value())
                skipSpace()
                if index < bytes.count && bytes[index] == UInt8(ascii: ",") { index += 1 }
            }
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            var text: [UInt8] = []
            while index < bytes.count && (bytes[index] == UInt8(ascii: "'") || bytes[index] == UInt8(ascii: "\"")) {
                text += try quoted()
                skipSpace()
            }
            return .scalar(String(decoding: text, as: UTF8.self))
        default:
            let text = word()
            guard !text.isEmpty else { throw Invalid(description: "a value expected at byte \(index)") }
            return .scalar(text)
        }
    }

    private mutating func word() -> String {
        let start = index
        while index < bytes.count,
            bytes[index] == UInt8(ascii: "_") || bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "-")
                || (bytes[index] >= 0x30 && bytes[index] <= 0x39)
                || ((bytes[index] | 0x20) >= 0x61
                    && (bytes[index] | 0x20) <= 0x7A)
        {
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// One quoted string with C-style escapes.
    private mutating func quoted() throws -> [UInt8] {
        let quote = bytes[index]
        index += 1
        var text: [UInt8] = []
        while index < bytes.count && bytes[index] != quote {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                index += 1
                switch bytes[index] {
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "r"): text.append(0x0D)
                default: text.append(bytes[index])
                }
            } else {
                text.append(bytes[index])
            }
            index += 1
        }
        guard index < bytes.count else { throw Invalid(description: "unterminated string") }
        index += 1
        return text
    }
}

extension ProtoText.Value {
    var scalar: String? {
        if case .scalar(let text) = self { return text }
        return nil
    }

    var fields: [(name: String, value: ProtoText.Value)] {
        if case .message(let fields) = self { return fields }
        return []
    }

    /// The last value of `name` (a message's single field).
    subscript(_ name: String) -> ProtoText.Value? {
        fields.last { $0.name == name }?.value
    }

    /// Every value of a repeated field, a `[…]` list flattened.
    func all(_ name: String) -> [ProtoText.Value] {
        fields.filter { $0.name == name }.flatMap { field -> [ProtoText.Value] in
            if case .list(let values) = field.value { return values }
            return [field.value]
        }
    }
}
