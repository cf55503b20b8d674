/// Who asks for a link without the app opening it, as far as the User-Agent tells: the
/// decisions of `fallback.json` differ only by these four (README, "The link domain").
public enum FallbackClient: String, Sendable, CaseIterable {
    case desktop
    case iOS = "ios"
    case android
    /// A link-preview fetcher (Slack, iMessage, WhatsApp …): it renders a card, not the page.
    case crawler

    /// Link-preview fetchers, compared case-insensitively anywhere in the User-Agent, by
    /// their first letter (the scan looks at each byte once and compares only the tokens of
    /// its letter). iMessage's previews announce themselves as `facebookexternalhit …
    /// Twitterbot`, so they are crawlers too.
    static func crawlerToken(_ text: UnsafePointer<UInt8>, at index: Int, _ count: Int) -> Bool {
        switch text[index] | 0x20 {
        case 0x66: has("facebookexternalhit", text, at: index, count) || has("facebot", text, at: index, count)
        case 0x74: has("twitterbot", text, at: index, count) || has("telegrambot", text, at: index, count)
        case 0x73: has("slackbot", text, at: index, count) || has("skypeuripreview", text, at: index, count)
        case 0x6C: has("linkedinbot", text, at: index, count)
        case 0x64: has("discordbot", text, at: index, count)
        case 0x77: has("whatsapp", text, at: index, count)
        case 0x70: has("pinterestbot", text, at: index, count)
        case 0x72: has("redditbot", text, at: index, count)
        case 0x6D: has("mastodon", text, at: index, count)
        case 0x65: has("embedly", text, at: index, count)
        case 0x69: has("iframely", text, at: index, count)
        default: false
        }
    }

    /// One pass over the User-Agent's bytes; a crawler wins over the platform it runs on
    /// (WhatsApp's fetcher names Android). No User-Agent is a desktop browser.
    public init(userAgent: UnsafeBufferPointer<UInt8>) {
        var platform = FallbackClient.desktop
        guard let base = userAgent.baseAddress else {
            self = platform
            return
        }
        let count = userAgent.count
        var index = 0
        while index < count {
            // `| 0x20` lower-cases a letter; the tokens are lower-case letters only, so a
            // non-letter never compares equal to one.
            if Self.crawlerToken(base, at: index, count) {
                self = .crawler
                return
            }
            switch base[index] | 0x20 {
            case 0x69 where platform == .desktop:  // iphone, ipad, ipod
                if Self.has("iphone", base, at: index, count) || Self.has("ipad", base, at: index, count)
                    || Self.has("ipod", base, at: index, count)
                {
                    platform = .iOS
                }
            case 0x61 where platform == .desktop:
                if Self.has("android", base, at: index, count) { platform = .android }
            default:
                break
            }
            index += 1
        }
        self = platform
    }

    public init(userAgent: String) {
        var bytes = Array(userAgent.utf8)
        self = bytes.withUnsafeMutableBufferPointer { FallbackClient(userAgent: UnsafeBufferPointer($0)) }
    }

    /// True when `token` (lower-case letters) is at `start`, in either case.
    @inline(__always)
    private static func has(_ token: StaticString, _ text: UnsafePointer<UInt8>, at start: Int, _ count: Int) -> Bool {
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
