/// The one writer of JSON text (RFC 8259) in the program: commands' `--json` and SARIF
/// output, `/sites.json`, log events, the access log and ACME's request bodies. Strings are
/// escaped by Unicode scalars (§7), written as UTF-8 (§8.1); bytes from the wire go through
/// `appendStringContents(bytes:to:)`, which appends without allocating.
public struct JSONWriter: Sendable {
    /// Keys sorted by their UTF-8 bytes, as `JSONEncoder`'s `.sortedKeys` did, rather than in
    /// the order given.
    public var sortedKeys = false
    /// Two-space indentation and `"key" : value`, as `JSONEncoder`'s `.prettyPrinted` wrote it.
    public var pretty = false
    /// Strings escaped as `appendString(_:lineSafe:to:)` does for logs.
    public var lineSafe = false

    public init(sortedKeys: Bool = false, pretty: Bool = false, lineSafe: Bool = false) {
        self.sortedKeys = sortedKeys
        self.pretty = pretty
        self.lineSafe = lineSafe
    }

    /// `node` as JSON text.
    public func text(_ node: JSONNode) -> String {
        var bytes: [UInt8] = []
        append(node, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public func append(_ node: JSONNode, to bytes: inout [UInt8]) {
        append(node, to: &bytes, depth: 0)
    }

    private func append(_ node: JSONNode, to bytes: inout [UInt8], depth: Int) {
        switch node {
        case .object(let members):
            let ordered = sortedKeys ? members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : members
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in ordered.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(&bytes, depth: depth + 1)
                Self.appendString(member.key, lineSafe: lineSafe, to: &bytes)
                if pretty { bytes += Array(" : ".utf8) } else { bytes.append(UInt8(ascii: ":")) }
                append(member.value, to: &bytes, depth: depth + 1)
            }
            if ordered.isEmpty && pretty { bytes.append(UInt8(ascii: "\n")) }
            newline(&bytes, depth: depth)
            bytes.append(UInt8(ascii: "}"))
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(&bytes, depth: depth + 1)
                append(element, to: &bytes, depth: depth + 1)
            }
            if elements.isEmpty && pretty { bytes.append(UInt8(ascii: "\n")) }
            newline(&bytes, depth: depth)
            bytes.append(UInt8(ascii: "]"))
        case .string(let text): Self.appendString(text, lineSafe: lineSafe, to: &bytes)
        case .integer(let value): bytes += Array(String(value).utf8)
        case .unsigned(let value): bytes += Array(String(value).utf8)
        case .number(let value): Self.appendNumber(value, to: &bytes)
        case .bool(let value): bytes += Array((value ? "true" : "false").utf8)
        case .null: bytes += Array("null".utf8)
        }
    }

    private func newline(_ bytes: inout [UInt8], depth: Int) {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes += repeatElement(UInt8(ascii: " "), count: 2 * depth)
    }

    /// A number as JSON (RFC 8259 §6): integral values without a fraction, others in Swift's
    /// shortest round-tripping form; NaN and infinities, which JSON cannot hold, as `null`.
    public static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        guard value.isFinite else {
            bytes += Array("null".utf8)
            return
        }
        if value == value.rounded() && abs(value) < 1e15 {
            bytes += Array(String(Int64(value)).utf8)
        } else {
            bytes += Array("\(value)".utf8)
        }
    }

    /// `text` as a JSON string literal: quote, backslash and the controls below U+0020 escaped
    /// (RFC 8259 §7); with `lineSafe`, also DEL, the C1 controls and U+2028/U+2029, at which
    /// some readers break lines (what a log needs, so a value cannot forge a line).
    public static func appendString(_ text: String, lineSafe: Bool = false, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            if lineSafe ? needsEscape(scalar.value) : (scalar.value < 0x20 || scalar == "\"" || scalar == "\\") {
                appendEscape(scalar.value, to: &bytes)
            } else {
                UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string literal, as a `String`.
    public static func quoted(_ text: String, lineSafe: Bool = false) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        appendString(text, lineSafe: lineSafe, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The inside of a string literal (no quotes) from bytes that should be UTF-8 but come from
    /// a peer: each well-formed sequence is one scalar, escaped as `appendString(lineSafe:)`; a
    /// byte that starts none is U+FFFD, written `\ufffd` so the replacement stays visible.
    /// Appends only: allocation-free when `bytes` has the capacity.
    public static func appendStringContents(bytes input: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                bytes.append(byte)
                index += 1
            } else if let length = UTF8Sequence.length(input, at: index) {
                if length == 1 || needsEscape(UTF8Sequence.scalarValue(input, at: index, length: length)) {
                    appendEscape(UTF8Sequence.scalarValue(input, at: index, length: length), to: &bytes)
                } else {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[index..<(index + length)]))
                }
                index += length
            } else {
                appendEscape(0xFFFD, to: &bytes)
                index += 1
            }
        }
    }

    /// Quote, backslash and the controls RFC 8259 §7 requires escaped, plus DEL, the C1
    /// controls and U+2028/U+2029, at which some readers break lines (a forged log line).
    static func needsEscape(_ value: UInt32) -> Bool {
        value < 0x20 || value == 0x22 || value == 0x5C || (0x7F...0x9F).contains(value) || value == 0x2028
            || value == 0x2029
    }

    /// `\"`, `\\`, or `\uXXXX` (lower-case hex) for a scalar in the Basic Multilingual Plane.
    static func appendEscape(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch value {
        case 0x22: bytes.append(UInt8(ascii: "\""))
        case 0x5C: bytes.append(UInt8(ascii: "\\"))
        default:
            bytes.append(UInt8(ascii: "u"))
            let digits: StaticString = "0123456789abcdef"
            digits.withUTF8Buffer { hex in
                for shift in stride(from: 12, through: 0, by: -4) {
                    bytes.append(hex[Int((value >> UInt32(shift)) & 0xF)])
                }
            }
        }
    }
}
