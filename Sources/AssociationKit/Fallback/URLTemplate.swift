/// A `web` template of `fallback.json`: an absolute http(s) URL whose scheme and authority are
/// fixed text, with `{path}` and `{query}` placeholders after them (docs/fallback.md, "The link domain").
/// The request fills the placeholders percent-encoded (`URLTemplate+Expansion.swift`), so it
/// can never change the scheme, host or port, nor add a header or markup.
public struct URLTemplate: Sendable, Equatable {
    public enum Part: Sendable, Equatable {
        case literal([UInt8])
        case path
        case query
    }

    /// Why a template is refused, for `validate`.
    public enum Problem: Error, Equatable {
        case notAbsolute
        case unknownPlaceholder(String)
        case placeholderInAuthority
        case invalidCharacter
    }

    public let text: String
    /// `scheme://authority`, never from the request.
    public let origin: [UInt8]
    /// What follows the authority.
    public let parts: [Part]

    public init(_ text: String) throws(Problem) {
        self.text = text
        let bytes = Array(text.utf8)
        // RFC 3986 §3: only the two schemes a browser follows from a 302.
        let lower = bytes.prefix(8).map { $0 | 0x20 }
        let schemeLength: Int
        if lower.starts(with: Array("https://".utf8)) {
            schemeLength = 8
        } else if lower.starts(with: Array("http://".utf8)) {
            schemeLength = 7
        } else {
            throw .notAbsolute
        }
        // Text a header or a page could not carry as written: controls, space, non-ASCII, `\`.
        if bytes.contains(where: { $0 <= 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\\") }) {
            throw .invalidCharacter
        }
        var end = schemeLength
        while end < bytes.count, !"/?#{".utf8.contains(bytes[end]) { end += 1 }
        guard end > schemeLength else { throw .notAbsolute }
        let authority = bytes[schemeLength..<end]
        if authority.contains(UInt8(ascii: "}")) { throw .placeholderInAuthority }
        origin = Array(bytes[..<end])
        var parts: [Part] = []
        var literal: [UInt8] = []
        var index = end
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "}") { throw .unknownPlaceholder("}") }
            guard byte == UInt8(ascii: "{") else {
                literal.append(byte)
                index += 1
                continue
            }
            guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")) else {
                throw .unknownPlaceholder(String(decoding: bytes[index...], as: UTF8.self))
            }
            let name = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
            let part: Part
            switch name {
            case "path": part = .path
            case "query": part = .query
            default: throw .unknownPlaceholder("{\(name)}")
            }
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = []
            parts.append(part)
            index = close + 1
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }
}
