/// A page of `fallback.json` prepared at load: its fixed text already escaped, with the two
/// places a request fills (docs/usage.md, "The link domain for people without the app"). Rendering
/// copies the pieces and escapes only the request's values.
struct PageTemplate: Sendable {
    enum Piece: Sendable {
        case text([UInt8])
        /// The link as opened: `https://HOST/PATH?QUERY`.
        case link
        /// The web destination of the decision.
        case destination
    }

    private(set) var pieces: [Piece] = []

    /// Text of our own (markup), appended as it is.
    mutating func markup(_ text: String) {
        if case .text(let bytes)? = pieces.last {
            pieces[pieces.count - 1] = .text(bytes + Array(text.utf8))
        } else {
            pieces.append(.text(Array(text.utf8)))
        }
    }

    /// Text from fallback.json, escaped once here.
    mutating func value(_ text: String) {
        var escaped: [UInt8] = []
        HTMLText.escape(text.utf8, into: &escaped)
        markup(String(decoding: escaped, as: UTF8.self))
    }

    mutating func link() { pieces.append(.link) }
    mutating func destination() { pieces.append(.destination) }

    /// The page for one request: `link` and `destination` are URL bytes, escaped here.
    func render(link: [UInt8], destination: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(2048)
        for piece in pieces {
            switch piece {
            case .text(let bytes): body += bytes
            case .link: HTMLText.escape(link, into: &body)
            case .destination: HTMLText.escape(destination, into: &body)
            }
        }
        return body
    }
}
