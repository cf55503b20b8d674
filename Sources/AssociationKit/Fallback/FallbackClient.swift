/// Who asks for a link without the app opening it, as far as the User-Agent tells: the
/// decisions of `fallback.json` differ only by these (docs/fallback.md).
public enum FallbackClient: String, Sendable, CaseIterable {
    case desktop
    case iOS = "ios"
    /// An in-app browser on iOS 17 or later (Instagram, Facebook, TikTok …), where universal
    /// links rarely fire and `x-safari-https://` opens the link in Safari.
    case iOSInApp = "ios_in_app"
    case android
    /// An Android WebView (`; wv)`) or a known in-app browser: its way out is an `intent://` link.
    case androidInApp = "android_in_app"
    /// A link-preview fetcher (Slack, iMessage, WhatsApp …): it renders a card, not the page.
    case crawler

    /// What a token says about the client.
    package enum Token: Sendable { case crawler, iOS, android, inApp }

    /// The tokens by their first two letters, each pair one bit of the tables below (and one
    /// case of `token(_:_:_:_:)`, in this order; a table test checks every token). iMessage's
    /// previews announce themselves as `facebookexternalhit … Twitterbot`, so they are crawlers too.
    package static let groups: [(pair: StaticString, tokens: [(StaticString, Token)])] = [
        ("fa", [("facebookexternalhit", .crawler), ("facebot", .crawler)]), ("tw", [("twitterbot", .crawler)]),
        ("te", [("telegrambot", .crawler)]), ("sl", [("slackbot", .crawler)]),
        ("sk", [("skypeuripreview", .crawler)]),
        ("li", [("linkedinbot", .crawler), ("linkedinapp", .inApp), ("line/", .inApp)]),
        ("di", [("discordbot", .crawler)]), ("wh", [("whatsapp", .crawler)]), ("pi", [("pinterestbot", .crawler)]),
        ("re", [("redditbot", .crawler)]), ("ma", [("mastodon", .crawler)]), ("em", [("embedly", .crawler)]),
        ("if", [("iframely", .crawler)]), ("ip", [("iphone", .iOS), ("ipad", .iOS), ("ipod", .iOS)]),
        ("an", [("android", .android)]), ("wv", [("wv)", .inApp)]), ("fb", [("fban/", .inApp), ("fbav/", .inApp)]),
        ("in", [("instagram", .inApp)]), ("mu", [("musical_ly", .inApp)]), ("ti", [("tiktok", .inApp)]),
        ("by", [("bytedancewebview", .inApp)]), ("sn", [("snapchat", .inApp)]),
    ]

    /// For a byte, the groups whose pair starts with it (`first`) or has it second (`second`),
    /// either case: a position starts a pair exactly when the two masks share a bit.
    static let masks: (first: [UInt32], second: [UInt32]) = {
        var first = [UInt32](repeating: 0, count: 256)
        var second = [UInt32](repeating: 0, count: 256)
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
        guard let text = userAgent.baseAddress, userAgent.count > 1 else {
            self = .desktop
            return
        }
        let count = userAgent.count
        let (first, second) = Self.masks
        var platform = Token?.none
        var inApp = false
        let crawler = first.withUnsafeBufferPointer { first in
            second.withUnsafeBufferPointer { second -> Bool in
                var previous = first[Int(text[0])]
                var index = 1
                while index < count {
                    let byte = Int(text[index])
                    let hits = previous & second[byte]
                    previous = first[byte]
                    if hits != 0, let token = Self.token(hits, text, index - 1, count) {
                        switch token {
                        case .crawler: return true
                        case .inApp: inApp = true
                        case .iOS, .android: if platform == nil { platform = token }
                        }
                    }
                    index += 1
                }
                return false
            }
        }
        switch platform {
        case _ where crawler: self = .crawler
        case .iOS?: self = inApp && Self.iOSMajor(text, count) >= 17 ? .iOSInApp : .iOS
        case .android?: self = inApp ? .androidInApp : .android
        default: self = .desktop
        }
    }

    /// The token of the group `bit` (in `groups` order) that starts at `start`, if any: a
    /// switch, so a hit costs a few comparisons and no reference counting.
    private static func token(_ hits: UInt32, _ text: UnsafePointer<UInt8>, _ start: Int, _ count: Int)
        -> Token?
    {
        func at(_ token: StaticString) -> Bool { has(token, text, start, count) }
        switch hits.trailingZeroBitCount {
        case 0: return at("facebookexternalhit") || at("facebot") ? .crawler : nil
        case 1: return at("twitterbot") ? .crawler : nil
        case 2: return at("telegrambot") ? .crawler : nil
        case 3: return at("slackbot") ? .crawler : nil
        case 4: return at("skypeuripreview") ? .crawler : nil
        // `like Gecko` is in most User-Agents: one short look before the three tokens.
        case 5: return !at("lin") ? nil : at("linkedinbot") ? .crawler : at("linkedinapp") || at("line/") ? .inApp : nil
        case 6: return at("discordbot") ? .crawler : nil
        case 7: return at("whatsapp") ? .crawler : nil
        case 8: return at("pinterestbot") ? .crawler : nil
        case 9: return at("redditbot") ? .crawler : nil
        case 10: return at("mastodon") ? .crawler : nil
        case 11: return at("embedly") ? .crawler : nil
        case 12: return at("iframely") ? .crawler : nil
        case 13: return at("iphone") || at("ipad") || at("ipod") ? .iOS : nil
        case 14: return at("android") ? .android : nil
        case 15: return at("wv)") ? .inApp : nil
        case 16: return at("fban/") || at("fbav/") ? .inApp : nil
        case 17: return at("instagram") ? .inApp : nil
        case 18: return at("musical_ly") ? .inApp : nil
        case 19: return at("tiktok") ? .inApp : nil
        case 20: return at("bytedancewebview") ? .inApp : nil
        case 21: return at("snapchat") ? .inApp : nil
        default: return nil
        }
    }

    /// The major version of `OS 17_5` (`CPU iPhone OS 17_5 like Mac OS X`), 0 when there is
    /// none: only in-app browsers on iOS 17 or later open `x-safari-https://` links.
    private static func iOSMajor(_ text: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var index = 0
        while index + 4 < count {
            if text[index] == UInt8(ascii: "O"), text[index + 1] == UInt8(ascii: "S"), text[index + 2] == 0x20 {
                var major = 0
                var digit = index + 3
                while digit < count, digit < index + 6, text[digit] &- UInt8(ascii: "0") < 10 {
                    major = major * 10 + Int(text[digit] &- UInt8(ascii: "0"))
                    digit += 1
                }
                if digit > index + 3, digit < count, text[digit] == UInt8(ascii: "_") { return major }
            }
            index += 1
        }
        return 0
    }

    public init(userAgent: String) {
        var bytes = Array(userAgent.utf8)
        self = bytes.withUnsafeMutableBufferPointer { FallbackClient(userAgent: UnsafeBufferPointer($0)) }
    }

    /// True when `token` (lower-case letters, digits, `/`, `)` and `_`) is at `start`, letters in
    /// either case: both sides with bit 5 set, which folds letters and keeps `/` and `)` (`_`
    /// matches `_` and DEL, no letter).
    @inline(__always)
    private static func has(_ token: StaticString, _ text: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Bool {
        let length = token.utf8CodeUnitCount
        guard start + length <= count else { return false }
        let letters = token.utf8Start
        var offset = 0
        while offset < length {
            if text[start + offset] | 0x20 != letters[offset] | 0x20 { return false }
            offset += 1
        }
        return true
    }
}
