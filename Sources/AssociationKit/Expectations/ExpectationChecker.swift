/// Checks a site's `expectations.json` against its files: every listed URL must get the
/// promised decision for the listed app, by Apple's rules (`apple`) and Android's
/// (`android`), so a file that would stop a promised link from opening the app never ships.
///
/// ```json
/// {"apple":   [{"url": "https://example.com/buy/1", "app": "ABCDE12345.com.example.app", "expect": "match"}],
///  "android": [{"url": "https://example.com/buy/1", "package": "com.example.app", "expect": "no_match"}]}
/// ```
public struct ExpectationChecker {
    public static let fileName = "expectations.json"

    var diagnostics: [Diagnostic] = []

    /// Checks an expectations file against a site's decoded files. `apple` and `android` are
    /// nil when the site has none (or it is invalid), which fails every expectation for that
    /// platform; `domain` is the site's exact name, which URLs must have as host (nil for a
    /// wildcard site).
    public static func check(
        _ bytes: [UInt8], apple: AssociationFile?, android: AssetLinks?, domain: String?
    ) -> ValidationReport {
        var checker = ExpectationChecker()
        let document = JSONDocument.parse(bytes)
        checker.diagnostics += document.diagnostics
        if let root = document.root {
            checker.check(
                root, apple: apple.map(AssociationMatcher.init(file:)),
                android: android.map(AssetLinksMatcher.init(file:)), domain: domain)
        }
        let (kept, omitted) = checker.diagnostics.limited(resolvingPointersIn: document.root)
        return ValidationReport(file: nil, diagnostics: kept, omitted: omitted, byteCount: bytes.count)
    }

    mutating func check(_ root: JSONValue, apple: AssociationMatcher?, android: AssetLinksMatcher?, domain: String?) {
        guard let members = root.members else {
            return malformed(
                "expectations.json must be an object with \"apple\" and/or \"android\" lists, found \(root.typeName)",
                at: root)
        }
        for member in members {
            switch member.key {
            case "apple", "android":
                guard let entries = member.value.arrayValue else {
                    malformed(
                        "\(member.key) must be a list of expectations, found \(member.value.typeName)", at: member.value
                    )
                    continue
                }
                for entry in entries {
                    check(entry, platform: member.key, apple: apple, android: android, domain: domain)
                }
            default:
                malformed(
                    "unknown key \"\(member.key)\"; expectations.json has \"apple\" and \"android\"", at: member.value)
            }
        }
    }

    private mutating func check(
        _ entry: JSONValue, platform: String, apple: AssociationMatcher?, android: AssetLinksMatcher?, domain: String?
    ) {
        let appKey = platform == "apple" ? "app" : "package"
        let allowed: [MatchDecision.Outcome] = [.match, .exclude, .noMatch]
        guard let fields = entry.members else {
            return malformed("an expectation must be an object, found \(entry.typeName)", at: entry)
        }
        for field in fields where !["url", appKey, "expect", "comment"].contains(field.key) {
            malformed(
                "unknown key \"\(field.key)\" in an \(platform) expectation (url, \(appKey), expect)", at: field.value)
        }
        guard let urlText = entry["url"]?.stringValue, let app = entry[appKey]?.stringValue,
            let expectText = entry["expect"]?.stringValue
        else {
            return malformed(
                "an \(platform) expectation needs \"url\", \"\(appKey)\" and \"expect\" strings", at: entry)
        }
        guard let expected = MatchDecision.Outcome(rawValue: expectText), allowed.contains(expected) else {
            let choices = allowed.map(\.rawValue).joined(separator: ", ")
            return malformed(
                "expect is \"\(expectText)\"; an \(platform) expectation expects one of \(choices)",
                at: entry["expect"] ?? entry)
        }
        let url: MatchURL
        do {
            url = try MatchURL(urlText)
        } catch {
            return malformed(
                "\"\(urlText)\" is not a URL the matcher can read: \(error.description)", at: entry["url"] ?? entry)
        }
        let decision =
            platform == "apple"
            ? apple?.decide(url, appID: app, domain: domain) : android?.decide(url, package: app, domain: domain)
        guard let decision else {
            let file = platform == "apple" ? "apple-app-site-association" : "assetlinks.json"
            return report(
                .expectationFailed,
                "\(urlText) \(app): expected \(expected.rawValue), but the site has no valid \(file)", at: entry)
        }
        // Without dynamic rules Android's answer is `unknown` (the app's manifest decides): the file
        // does not stop a promised match, and does not keep the URL on the web either.
        guard expected == .match ? !decision.outcome.mayOpen : decision.outcome != expected else { return }
        var message =
            "\(urlText) \(app): expected \(expected.rawValue), got \(decision.outcome.rawValue) (\(decision.reason))"
        if let rule = decision.rule { message += "; rule: \(rule.compacted)" }
        report(.expectationFailed, message, at: entry)
    }

    private mutating func malformed(_ message: String, at value: JSONValue) {
        report(.malformedExpectation, message, at: value)
    }

    private mutating func report(_ code: DiagnosticCode, _ message: String, at value: JSONValue) {
        diagnostics.append(Diagnostic(code, message, at: value))
    }
}
