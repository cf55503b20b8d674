/// The Public Suffix List (publicsuffix.org): which names are public suffixes, under which
/// anyone may register a name, so that `shop.example.co.uk` and `example.com` both belong to a
/// registrable domain labelled `example`. A pure value parsed from the list's text, ICANN and
/// private sections alike (`github.io` is a suffix); the text is read at the edge, from the
/// system's copy (`AASASites/PublicSuffixListFile.swift`; docs/ARCHITECTURE.md, "The Public
/// Suffix List"). Rules in Unicode are kept in their ASCII (`xn--`) form, as hosts in URLs are.
public struct PublicSuffixList: Sendable {
    /// Plain rules (`co.uk`), wildcard rules by what follows `*.` (`ck` for `*.ck`), and
    /// exception rules without their `!` (`www.ck`).
    private var rules: Set<String> = []
    private var wildcards: Set<String> = []
    private var exceptions: Set<String> = []

    /// The number of rules read.
    public var count: Int { rules.count + wildcards.count + exceptions.count }

    /// Parses the list's format (publicsuffix.org, "Format"): one rule a line, the rule being
    /// the line up to its first white space; `//` comments and blank lines skipped.
    public init(text: String) {
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            guard let word = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first,
                !word.hasPrefix("//")
            else { continue }
            let rule = Self.ascii(word.lowercased())
            if rule.hasPrefix("!") {
                exceptions.insert(String(rule.dropFirst()))
            } else if rule.hasPrefix("*.") {
                wildcards.insert(String(rule.dropFirst(2)))
            } else {
                rules.insert(rule)
            }
        }
    }

    /// The public suffix of `host` (lower-case, ASCII, no trailing dot) by the list's algorithm
    /// (publicsuffix.org, "Algorithm"): an exception rule wins, else the longest matching rule,
    /// else the last label (the implicit `*`). nil for an empty host or an empty label.
    public func publicSuffix(of host: String) -> String? {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.isEmpty, labels.allSatisfy({ !$0.isEmpty }) else { return nil }
        let suffixes = labels.indices.map { labels[$0...].joined(separator: ".") }
        if let exception = suffixes.firstIndex(where: { exceptions.contains($0) }) {
            return exception + 1 < labels.count ? suffixes[exception + 1] : nil
        }
        for index in labels.indices {
            if rules.contains(suffixes[index]) { return suffixes[index] }
            if index + 1 < labels.count, wildcards.contains(suffixes[index + 1]) { return suffixes[index] }
        }
        return suffixes[labels.count - 1]
    }

    /// The public suffix and one more label (`example.co.uk`), or nil when `host` is a public
    /// suffix itself (`co.uk`, `github.io`, `localhost`) or not a name.
    public func registrableDomain(of host: String) -> String? {
        let host = Self.ascii(host.lowercased())
        guard let suffix = publicSuffix(of: host), host.utf8.count > suffix.utf8.count + 1 else { return nil }
        let head = host.utf8.dropLast(suffix.utf8.count + 1)
        let label = head.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).last ?? head[...]
        return String(decoding: label, as: UTF8.self) + "." + suffix
    }

    /// The registrable domain's first label (`example` for `shop.example.co.uk`): what WebAuthn's
    /// related origins are counted by (docs/association-files.md, "Passkeys").
    public func registrableLabel(of host: String) -> String? {
        registrableDomain(of: host).map { String($0.prefix { $0 != "." }) }
    }

    /// Labels outside ASCII in their Punycode form (RFC 3492, with the `xn--` prefix of
    /// IDNA, RFC 5890 §2.3.2.1).
    static func ascii(_ name: String) -> String {
        guard !name.utf8.allSatisfy({ $0 < 0x80 }) else { return name }
        return name.split(separator: ".", omittingEmptySubsequences: false).map { label in
            label.utf8.allSatisfy { $0 < 0x80 } ? String(label) : "xn--" + Punycode.encode(label.unicodeScalars)
        }.joined(separator: ".")
    }
}
