/// Who asks for a link without the app opening it, as far as the User-Agent tells: the
/// decisions of `fallback.json` differ only by these four (README, "The link domain").
public enum FallbackClient: String, Sendable, CaseIterable {
    case desktop
    case iOS = "ios"
    case android
    /// A link-preview fetcher (Slack, iMessage, WhatsApp …): it renders a card, not the page.
    case crawler

    /// Compared case-insensitively anywhere in the User-Agent. iMessage's previews announce
    /// themselves as `facebookexternalhit … Twitterbot`, so they are crawlers too.
    static let crawlerTokens = [
        "facebookexternalhit", "facebot", "twitterbot", "slackbot", "linkedinbot", "discordbot", "whatsapp",
        "telegrambot", "skypeuripreview", "pinterestbot", "redditbot", "mastodon", "embedly", "iframely",
    ].map { Array($0.utf8) }
    static let iOSTokens = ["iphone", "ipad", "ipod"].map { Array($0.utf8) }
    static let androidTokens = [Array("android".utf8)]

    /// The first byte of every token, to pass most positions with one table look-up.
    static let firstBytes: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for token in crawlerTokens + iOSTokens + androidTokens { table[Int(token[0])] = true }
        return table
    }()

    /// One pass over the User-Agent's bytes; a crawler wins over the platform it runs on
    /// (WhatsApp's fetcher names Android). No User-Agent is a desktop browser.
    public init(userAgent: UnsafeBufferPointer<UInt8>) {
        var platform = FallbackClient.desktop
        var index = 0
        while index < userAgent.count {
            let lower = userAgent[index] | (userAgent[index] &- 0x41 < 26 ? 0x20 : 0)
            if Self.firstBytes[Int(lower)] {
                if Self.matches(userAgent, at: index, any: Self.crawlerTokens) {
                    self = .crawler
                    return
                }
                if platform == .desktop {
                    if Self.matches(userAgent, at: index, any: Self.iOSTokens) {
                        platform = .iOS
                    } else if Self.matches(userAgent, at: index, any: Self.androidTokens) {
                        platform = .android
                    }
                }
            }
            index += 1
        }
        self = platform
    }

    public init(userAgent: String) {
        var bytes = Array(userAgent.utf8)
        self = bytes.withUnsafeMutableBufferPointer { FallbackClient(userAgent: UnsafeBufferPointer($0)) }
    }

    private static func matches(_ text: UnsafeBufferPointer<UInt8>, at start: Int, any tokens: [[UInt8]]) -> Bool {
        tokens.contains { token in
            guard start + token.count <= text.count else { return false }
            for offset in 0..<token.count {
                let byte = text[start + offset]
                let lower = byte | (byte &- 0x41 < 26 ? 0x20 : 0)
                if lower != token[offset] { return false }
            }
            return true
        }
    }
}
