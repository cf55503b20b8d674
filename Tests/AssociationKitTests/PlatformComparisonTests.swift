import Testing

@testable import AssociationKit

/// A site's two files compared (`XPL001`, `XPL002`): pairs that agree, disagree, and lack
/// Android's dynamic rules.
@Suite("both platforms compared")
struct PlatformComparisonTests {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    static func apple(_ components: String, variables: String = "{}") -> String {
        #"{"applinks": {"substitutionVariables": \#(variables), "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [\#(components)]}]}}"#
    }

    /// One statement for `package`; `rules` nil: no dynamic rules.
    static func statement(_ rules: String?, package: String = "com.example.app") -> String {
        let extensions = rules.map {
            #", "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [\#($0)]}}"#
        }
        return
            #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": ["\#(fingerprint)"]}\#(extensions ?? "")}"#
    }

    static func android(_ rules: String?) -> String { "[" + statement(rules) + "]" }

    static func compare(_ apple: String, _ android: String) throws -> [Diagnostic] {
        let appleFile = try #require(AssociationFileValidator.validate(Array(apple.utf8)).file)
        let report = AssetLinksValidator.validate(Array(android.utf8))
        #expect(!report.diagnostics.hasErrors, "\(report.diagnostics.map(\.messageWithPointer))")
        let androidFile = try #require(report.file)
        return PlatformComparison.compare(apple: appleFile, android: androidFile, host: "example.com")
    }

    static let accountOnTheWeb = apple(#"{"/": "/account/*", "exclude": true}, {"/": "*"}"#)

    /// Apple's components, Android's rules (nil: none), and the URL each XPL001 names
    /// (empty: the files agree).
    static let pairs: [(String, String, String?, [String])] = [
        ("same rules", accountOnTheWeb, #"{"/": "/account/*", "exclude": true}, {"/": "*"}"#, []),
        ("Android opens what Apple excludes", accountOnTheWeb, #"{"/": "*"}"#, ["https://example.com/account/x"]),
        (
            "each opens a path the other does not", apple(#"{"/": "/buy/*"}"#), #"{"/": "/shop/*"}"#,
            ["https://example.com/buy/x", "https://example.com/shop/x"]
        ),
        ("Apple's leading slash is optional", apple(#"{"/": "buy/*"}"#), #"{"/": "/buy/*"}"#, []),
        (
            "query items and fragments", apple(##"{"/": "/p/*", "?": {"ref": "?*"}}, {"#": "web", "exclude": true}"##),
            ##"{"/": "/p/*", "?": {"ref": "?*"}}, {"#": "web", "exclude": true}"##, []
        ),
        (
            "an exclusion Android lacks, by fragment", apple(##"{"#": "web", "exclude": true}, {"/": "*"}"##),
            #"{"/": "*"}"#, ["https://example.com/#web"]
        ),
        // Android has no variables: wildcards where Apple names them agree.
        (
            "variables read as wildcards",
            apple(
                #"{"/": "/$(lang)_$(region)/$(food)/"}, {"/": "/order/*", "?": {"t": "$(digit)*"}}"#,
                variables: #"{"food": ["pizza", "sushi"]}"#),
            #"{"/": "/?*_?*/?*/"}, {"/": "/order/*", "?": {"t": "?*"}}"#, []
        ),
        (
            "a wildcard broader than the variables' place", apple(#"{"/": "/$(lang)/menu/*"}"#),
            #"{"/": "/?*/menu/*"}, {"/": "/about"}"#, ["https://example.com/about"]
        ),
        // Without dynamic rules Android's answer is unknown: nothing to disagree with.
        ("no dynamic rules", accountOnTheWeb, nil, []),
    ]

    @Test("XPL001 names a URL built from the rules where one platform opens it and the other does not")
    func disagreements() throws {
        for (name, apple, rules, urls) in Self.pairs {
            let found = try Self.compare(apple, Self.android(rules)).filter { $0.code == .platformsDisagree }
            #expect(found.count == urls.count, "\(name): \(found.map(\.message))")
            for url in urls {
                #expect(found.contains { $0.message.hasPrefix(url + " opens ") }, "\(name): \(found.map(\.message))")
            }
            #expect(found.allSatisfy { $0.severity == .warning })
        }
    }

    @Test("XPL001 stands at Android's deciding rule and names both rules")
    func disagreementPosition() throws {
        let android = "[\n" + Self.statement(#"{"/": "/help/*"},"# + "\n" + #"{"/": "*"}"#) + "\n]"
        let found = try Self.compare(Self.accountOnTheWeb, android)
        let account = try #require(found.first { $0.message.hasPrefix("https://example.com/account/x ") })
        #expect(account.location.line == 3)
        #expect(
            account.pointer
                == "/0/relation_extensions/delegate_permission~1common.handle_all_urls/dynamic_app_link_components/1")
        #expect(account.message.contains("opens com.example.app on Android but stays on the web on iOS"))
        #expect(
            account.message.contains(
                "dynamic_app_link_components[1] is the first rule that matches \(AssetLinksMatcher.readerNote), "
                    + #"rule {"/": "*"}"#))
        #expect(account.message.contains(#"details[0].components[0] matches and excludes"#))
        #expect(account.message.contains(#"rule {"/": "/account/*", "exclude": true}"#))
        // Both open /help/x: Android by its first rule, Apple by `*`.
        #expect(!found.contains { $0.message.hasPrefix("https://example.com/help/x ") })
    }

    @Test("a URL left to one package's manifest is unknown, so not compared")
    func unknownPackage() throws {
        let android =
            "[" + Self.statement(#"{"/": "/shop/*"}"#) + ", " + Self.statement(nil, package: "com.example.other") + "]"
        let found = try Self.compare(Self.apple(#"{"/": "/buy/*"}"#), android)
        // /shop/x opens com.example.app on Android, Apple keeps it on the web: known.
        #expect(found.map { String($0.message.prefix(26)) } == ["https://example.com/shop/x"])
    }

    @Test("XPL002 gives the dynamic rules that follow Apple's, on each statement without them")
    func suggestion() throws {
        let android = "[" + Self.statement(nil) + ", " + Self.statement(nil, package: "com.example.other") + "]"
        let found = try Self.compare(Self.accountOnTheWeb, android)
        #expect(found.map(\.code) == [.noDynamicRules, .noDynamicRules])
        #expect(found.map(\.pointer) == ["/0", "/1"])
        #expect(found.allSatisfy { $0.severity == .info && $0.code.isAlwaysShown })
        let message = try #require(found.first?.message)
        #expect(message.contains("details[0].components[0]"))
        #expect(
            message.hasSuffix(#""dynamic_app_link_components": [{"/": "/account/*", "exclude": true}, {"/": "*"}]"#))
        // Apple excludes nothing: nothing to suggest.
        #expect(try Self.compare(Self.apple(#"{"/": "/buy/*"}"#), Self.android(nil)).isEmpty)
    }

    /// Apple's rules, and the dynamic rules written for them.
    static let translations: [(String, String)] = [
        (
            apple(#"{"/": "/a/*", "exclude": true, "comment": "x"}, {"/": "*"}"#),
            #"[{"/": "/a/*", "exclude": true}, {"/": "*"}]"#
        ),
        (
            apple(
                ##"{"#": "nope", "exclude": true}, {"/": "/$(lang)/$(food)", "?": {"id": "$(digit)*"}}"##,
                variables: #"{"food": ["a", ""]}"#),
            ##"[{"#": "nope", "exclude": true}, {"/": "/*/*", "?": {"id": "?*"}}]"##
        ),
        (
            #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app", "paths": ["NOT /a/*", "b/*"]}]}}"#,
            #"[{"/": "/a/*", "exclude": true}, {"/": "/b/*"}]"#
        ),
        (apple(#"{"exclude": true, "?": "x=*"}, {"/": "/p"}"#), #"[{"/": "/p"}]"#),
    ]

    @Test("Apple's rules written as dynamic rules; with them, the two files agree")
    func translation() throws {
        for (apple, expected) in Self.translations {
            let file = try #require(AssociationFileValidator.validate(Array(apple.utf8)).file)
            let appLinks = try #require(file.appLinks)
            let site = PlatformComparison.Site(
                appLinks: appLinks, android: AssetLinks(), host: "example.com")
            let rules = site.appleRules.flatMap { entry in entry.rules.map { (entry.detailsIndex, $0) } }
            let (components, _) = PlatformComparison.dynamicRules(rules, variables: site.variables)
            let written = "[" + components.joined(separator: ", ") + "]"
            #expect(written == expected)
            let android = Self.android(String(written.dropFirst().dropLast()))
            #expect(try Self.compare(apple, android).isEmpty, "\(apple)")
        }
    }

    @Test("samples match the rule they are built from; relaxed patterns read variables as wildcards")
    func samples() throws {
        let variables = ["food": ["pizza"], "empty": [""]]
        #expect(PatternSample.fill("/$(lang)_$(region)/$(food)/*", variables: variables) == "/en_US/pizza/x")
        #expect(PatternSample.fill("/$(none)", variables: variables) == nil)
        #expect(PatternSample.fill("/$(lang)", variables: nil) == "/$(lang)")
        #expect(PatternSample.relaxed("/$(lang)*/$(empty)*x", variables: variables) == "/?*/*x")
        #expect(PatternSample.relaxed("/$(lang)", variables: nil) == "/$(lang)")
    }
}
