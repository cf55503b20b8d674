/// Who asks for a link without the app opening it, as far as the User-Agent tells: the
/// decisions of `fallback.json` differ only by these four (docs/usage.md, "The link domain").
public enum FallbackClient: String, Sendable, CaseIterable {
    case desktop
    case iOS = "ios"
    case android
    /// A link-preview fetcher (Slack, iMessage, WhatsApp …): it renders a card, not the page.
    case crawler

    /// The tokens by their first two letters, each pair one bit of the tables below (and one
    /// case of `client`, in this order; a table test checks every token). iMessage's
    /// previews announce themselves as `facebookexternalhit … Twitterbot`, so they are crawlers too.
    static let groups: [(pair: StaticString, tokens: [StaticString], client: FallbackClient)] = [
        ("fa", ["facebookexternalhit", "facebot"], .crawler), ("tw", ["twitterbot"], .crawler),
        ("te", ["telegrambot"], .crawler), ("sl", ["slackbot"], .crawler), ("sk", ["skypeuripreview"], .crawler),
        ("li", ["linkedinbot"], .crawler), ("di", ["discordbot"], .crawler), ("wh", ["whatsapp"], .crawler),
        ("pi", ["pinterestbot"], .crawler), ("re", ["redditbot"], .crawler), ("ma", ["mastodon"], .crawler),
        ("em", ["embedly"], .crawler), ("if", ["iframely"], .crawler), ("ip", ["iphone", "ipad", "ipod"], .iOS),
        ("an", ["android"], .android),
    ]

    /// For a byte, the groups whose pair starts with it (`first`) or has it second (`second`),
    /// either case: a position starts a pair exactly when the two masks share a bit.
    static let masks: (first: [UInt16], second: [UInt16]) = {
        var first = [UInt16](repeating: 0, count: 256)
        var second = [UInt16](repeating: 0, count: 256)
        for (bit, group) in groups.enumerated() {
            let letters = group.pair.utf8Start
            for upper in [UInt8(0), 0x20] {
                first[Int(letters[0] & ~0x20 | upper)] |= 1 << bit
                second[Int(letters[1] & ~0x20 | upper)] |= 1 << bit
            }
        }
        return (first, second)
    }()

    /// One pass over the User-Agent's bytes, case-insensitive, two table look-ups a byte; a
    /// token is compared only where its first two letters are. A crawler wins over the
    /// platform it runs on (WhatsApp's fetcher names Android). No User-Agent is a desktop browser.
    public init(userAgent: UnsafeBufferPointer<UInt8>) {
        var platform = FallbackClient.desktop
        guard let text = userAgent.baseAddress, userAgent.count > 1 else {
            self = platform
            return
        }
        let count = userAgent.count
        let (first, second) = Self.masks
        let found = first.withUnsafeBufferPointer { first in
            second.withUnsafeBufferPointer { second -> FallbackClient? in
                var previous = first[Int(text[0])]
                var index = 1
                while index < count {
                    let byte = Int(text[index])
                    let hits = previous & second[byte]
                    previous = first[byte]
                    if hits != 0, let client = Self.client(hits, text, index - 1, count), client != .desktop {
                        if client == .crawler { return .crawler }
                        if platform == .desktop { platform = client }
                    }
                    index += 1
                }
                return nil
            }
        }
        self = found ?? platform
    }

    /// The client of the group `bit` (in `groups` order) when one of its tokens starts at
    /// `start`: a switch, so a hit costs a few comparisons and no reference counting.
    private static func client(_ hits: UInt16, _ text: UnsafePointer<UInt8>, _ start: Int, _ count: Int)
        -> FallbackClient?
    {
        func at(_ token: StaticString) -> Bool { has(token, text, start, count) }
        switch hits.trailingZeroBitCount {
        case 0: return at("facebookexternalhit") || at("facebot") ? .crawler : nil
        case 1: return at("twitterbot") ? .crawler : nil
        case 2: return at("telegrambot") ? .crawler : nil
        case 3: return at("slackbot") ? .crawler : nil
        case 4: return at("skypeuripreview") ? .crawler : nil
        case 5: return at("linkedinbot") ? .crawler : nil
        case 6: return at("discordbot") ? .crawler : nil
        case 7: return at("whatsapp") ? .crawler : nil
        case 8: return at("pinterestbot") ? .crawler : nil
        case 9: return at("redditbot") ? .crawler : nil
        case 10: return at("mastodon") ? .crawler : nil
        case 11: return at("embedly") ? .crawler : nil
        case 12: return at("iframely") ? .crawler : nil
        case 13: return at("iphone") || at("ipad") || at("ipod") ? .iOS : nil
        case 14: return at("android") ? .android : nil
        default: return nil
        }
    }

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
