/// A page of `fallback.json` prepared at load: its fixed text already escaped, with the two
/// places a request fills (docs/usage.md, "The link domain for people without the app"). Rendering
/// copies the pieces and escapes only the request's values.
struct PageTemplate: Sendable {
    enum Piece: Sendable {
        case text([UInt8])
        /// The link as opened: `https://HOST/PATH?QUERY`.
        case link
        /// The link inside the Smart App Banner's `content`, a comma-separated list of
        /// `key=value` pairs (Apple, "Promoting apps with Smart App Banners"): a `,` in the link
        /// would end `app-argument` and start a pair of the client's choosing, so it is
        /// percent-encoded (RFC 3986 §2.1), which leaves the URL's meaning to the app.
        case bannerArgument
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
    mutating func bannerArgument() { pieces.append(.bannerArgument) }
    mutating func destination() { pieces.append(.destination) }

    /// The page for one request: `link` and `destination` are URL bytes, escaped here.
    func render(link: [UInt8], destination: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(2048)
        for piece in pieces {
            switch piece {
            case .text(let bytes): body += bytes
            case .link: HTMLText.escape(link, into: &body)
            case .bannerArgument:
                for byte in link {
                    if byte == UInt8(ascii: ",") {
                        body += "%2C".utf8
                    } else {
                        HTMLText.escape(CollectionOfOne(byte), into: &body)
                    }
                }
            case .destination: HTMLText.escape(destination, into: &body)
            }
        }
        return body
    }
}
