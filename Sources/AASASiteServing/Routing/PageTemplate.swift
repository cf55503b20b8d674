import AASALoop

/// A page of `fallback.json` prepared at load: its fixed text already escaped, with the two
/// places a request fills (docs/fallback.md, "The link domain for people without the app"). Rendering
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
        /// The link without its `https://`: what follows `intent://` or `x-safari-https://`.
        case linkAfterScheme
        /// The link as the value inside a query value that is itself percent-encoded (the Play
        /// link's `referrer=link%3D…`): every byte but RFC 3986 §2.3's unreserved ones as `%25XX`,
        /// so the Play Install Referrer API's one decoding leaves `link=` and the link encoded once.
        case referrerLink
        /// The destination percent-encoded once (an `intent:` extra's value, which Android decodes).
        case encodedDestination
    }

    /// RFC 3986 §2.3 unreserved bytes: the ones a percent-encoded value keeps as they are.
    static let unreserved: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8 {
            table[Int(byte)] = true
        }
        return table
    }()
    static let hexDigits = Array("0123456789ABCDEF".utf8)
    static let scheme = Array("https://".utf8)
    static let percent = [UInt8(ascii: "%")]
    static let percentTwice = Array("%25".utf8)

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
    mutating func append(_ piece: Piece) { pieces.append(piece) }

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
            case .linkAfterScheme:
                // `link` is `https://…` or empty (`SiteHandler.link`).
                HTMLText.escape(link.dropFirst(Self.scheme.count), into: &body)
            case .referrerLink: Self.percentEncode(link, into: &body, escape: Self.percentTwice)
            case .encodedDestination: Self.percentEncode(destination, into: &body, escape: Self.percent)
            }
        }
        return body
    }

    /// `bytes` with every byte but the unreserved ones as `escape` and two hex digits: no
    /// byte of the result needs escaping in HTML.
    static func percentEncode(_ bytes: [UInt8], into body: inout [UInt8], escape: [UInt8]) {
        for byte in bytes {
            if unreserved[Int(byte)] {
                body.append(byte)
            } else {
                body += escape
                body.append(hexDigits[Int(byte >> 4)])
                body.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }
}
