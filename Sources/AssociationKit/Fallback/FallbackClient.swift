/// Who asks for a link without the app opening it, as far as the User-Agent tells: the
/// decisions of `fallback.json` differ only by these four (README, "The link domain").
public enum FallbackClient: String, Sendable, CaseIterable {
    case desktop
    case iOS = "ios"
    case android
    /// A link-preview fetcher (Slack, iMessage, WhatsApp …): it renders a card, not the page.
    case crawler

    /// One pass over the User-Agent's bytes, case-insensitive; a crawler wins over the platform
    /// it runs on (WhatsApp's fetcher names Android). No User-Agent is a desktop browser. Each
    /// position costs one switch on its two bytes; a token is compared only where its first
    /// two letters are. iMessage's previews announce themselves as `facebookexternalhit …
    /// Twitterbot`, so they are crawlers too.
    public init(userAgent: UnsafeBufferPointer<UInt8>) {
        var platform = FallbackClient.desktop
        guard let text = userAgent.baseAddress, userAgent.count > 1 else {
            self = platform
            return
        }
        let count = userAgent.count
        var index = 0
        // `| 0x20` lower-cases a letter; the tokens are lower-case letters only, so a
        // non-letter never compares equal to one.
        var pair = UInt16(text[0] | 0x20)
        while index + 1 < count {
            pair = pair << 8 | UInt16(text[index + 1] | 0x20)
            switch pair {
            case 0x6661:  // fa
                if Self.has("facebookexternalhit", text, index, count) || Self.has("facebot", text, index, count) {
                    self = .crawler
                    return
                }
            case 0x7477, 0x7465, 0x736C, 0x736B, 0x6C69, 0x6469, 0x7768, 0x7069, 0x7265, 0x6D61, 0x656D, 0x6966:
                // tw te sl sk li di wh pi re ma em if
                for token in Self.crawlers where Self.has(token, text, index, count) {
                    self = .crawler
                    return
                }
            case 0x6970 where platform == .desktop:  // ip
                if Self.has("iphone", text, index, count) || Self.has("ipad", text, index, count)
                    || Self.has("ipod", text, index, count)
                {
                    platform = .iOS
                }
            case 0x616E where platform == .desktop:  // an
                if Self.has("android", text, index, count) { platform = .android }
            default:
                break
            }
            index += 1
        }
        self = platform
    }

    /// Link-preview fetchers but Facebook's, compared where their first two letters are.
    static let crawlers: [StaticString] = [
        "twitterbot", "telegrambot", "slackbot", "skypeuripreview", "linkedinbot", "discordbot", "whatsapp",
        "pinterestbot", "redditbot", "mastodon", "embedly", "iframely",
    ]

    public init(userAgent: String) {
        var bytes = Array(userAgent.utf8)
        self = bytes.withUnsafeMutableBufferPointer { FallbackClient(userAgent: UnsafeBufferPointer($0)) }
    }

    /// True when `token` (lower-case letters) is at `start`, in either case.
    @inline(__always)
    private static func has(_ token: StaticString, _ text: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Bool {
        let length = token.utf8CodeUnitCount
        guard start + length <= count else { return false }
        let letters = token.utf8Start
        var offset = 0
        while offset < length {
            if text[start + offset] | 0x20 != letters[offset] { return false }
            offset += 1
        }
        return true
    }
}
