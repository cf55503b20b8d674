import Foundation
import Testing

@testable import AssociationKit

/// Decisions by Apple's rules; every example recorded from Apple's swcutil is a row.
@Suite("Matcher")
struct MatcherTests {
    static let app = "ABCDE12345.com.example.app"

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var file: String
        var url: String
        var expected: MatchDecision.Outcome
        var domain: String? = "example.com"
        var appID: String = MatcherTests.app
        var testDescription: String { name }
    }

    /// A file with one entry for `app` whose components are `components`.
    static func components(_ components: String, applinks: String = "", entry: String = "") -> String {
        #"{"applinks": {\#(applinks)"details": [{"appIDs": ["\#(app)"], \#(entry)"components": [\#(components)]}]}}"#
    }

    /// One component, as in `swcutil match -j`.
    static func one(_ component: String) -> String { components(component) }

    static func c(_ name: String, _ file: String, _ path: String, _ expected: MatchDecision.Outcome) -> Case {
        Case(name: name, file: file, url: "https://example.com" + path, expected: expected)
    }

    static let overview = components(
        #"{"\u0023": "no_universal_links", "exclude": true}, {"/": "/buy/*"}, {"/": "/help/website/*", "exclude": true}, {"/": "/help/*", "?": {"articleNumber": "????"}}"#
    ).replacingFirst(#"["\#(app)"]"#, with: #"["\#(app)", "ABCDE12345.com.example.app2"]"#)

    static let restaurant = components(
        #"{"/": "/$(lang)_$(region)/$(food)/"}"#,
        applinks: #""substitutionVariables": {"food": ["burrito", "pizza", "sushi", "samosa"]}, "#)
    static let loose = components(
        #"{"/": "/Loose/*", "caseSensitive": false}, {"/": "/Strict/*"}"#,
        applinks: #""defaults": {"caseSensitive": false}, "#,
        entry: #""defaults": {"caseSensitive": true}, "#)
    static let legacy =
        #"{"applinks": {"apps": [], "details": [{"appID": "\#(app)", "paths": ["NOT /wwdc/internal/*", "/wwdc/*"]}]}}"#

    static let cases: [Case] = [
        // Apple's overview example (docs/association-files.md §2), first match wins.
        c("overview: /buy/42 matches", overview, "/buy/42", .match),
        c("overview: fragment exclusion comes first", overview, "/buy/42#no_universal_links", .exclude),
        c(
            "overview: specific exclusion before the general rule", overview, "/help/website/faq?articleNumber=4815",
            .exclude),
        c("overview: four-character article number", overview, "/help/123?articleNumber=4815", .match),
        c("overview: three characters do not match ????", overview, "/help/123?articleNumber=481", .noMatch),
        c("overview: five characters do not match ????", overview, "/help/123?articleNumber=48159", .noMatch),
        c("overview: absent item is empty and fails ????", overview, "/help/123", .noMatch),
        c("overview: unmatched path", overview, "/elsewhere", .noMatch),
        Case(
            name: "overview: second app ID matches too", file: overview, url: "https://example.com/buy/42",
            expected: .match, appID: "ABCDE12345.com.example.app2"),
        Case(
            name: "overview: an unlisted app never matches", file: overview, url: "https://example.com/buy/42",
            expected: .noMatch, appID: "ZZZZZ99999.com.other.app"),
        // All specified parts must match (docs/association-files.md §2).
        c("components: all parts match", one(#"{"/": "abc", "?": "def", "\u0023": "*"}"#), "/abc?def", .match),
        c("components: missing query fails", one(#"{"/": "/abc", "?": "def", "\u0023": "*"}"#), "/abc", .noMatch),
        c("components: missing path fails", one(#"{"/": "/abc", "?": "def", "\u0023": "*"}"#), "?def", .noMatch),
        c("components: unspecified path is *", one(#"{"\u0023": "promo"}"#), "/a/b?c=d#promo", .match),
        // Anchoring, slashes, wildcards (docs/association-files.md, "Patterns").
        c("/buy/* matches /buy", one(#"{"/": "/buy/*"}"#), "/buy", .match),
        c("/buy/* matches /buy/", one(#"{"/": "/buy/*"}"#), "/buy/", .match),
        c("/buy/* matches /buy/42", one(#"{"/": "/buy/*"}"#), "/buy/42", .match),
        c("* crosses slashes", one(#"{"/": "/buy/*"}"#), "/buy/42/x", .match),
        c("/buy/* does not match /buyer", one(#"{"/": "/buy/*"}"#), "/buyer", .noMatch),
        c("/buy/* does not match /bu", one(#"{"/": "/buy/*"}"#), "/bu", .noMatch),
        c("/buy/* matches /buy//", one(#"{"/": "/buy/*"}"#), "/buy//", .match),
        c("/a/b/* matches /a/b", one(#"{"/": "/a/b/*"}"#), "/a/b", .match),
        c("/buy* matches /buy", one(#"{"/": "/buy*"}"#), "/buy", .match),
        c("/a/*/c does not match /a/c", one(#"{"/": "/a/*/c"}"#), "/a/c", .noMatch),
        c("/buy matches /buy", one(#"{"/": "/buy"}"#), "/buy", .match),
        c("/buy matches /buy/", one(#"{"/": "/buy"}"#), "/buy/", .match),
        c("/buy does not match /buy/42", one(#"{"/": "/buy"}"#), "/buy/42", .noMatch),
        c("/buy/ matches /buy", one(#"{"/": "/buy/"}"#), "/buy", .match),
        c("/buy/ matches /buy//", one(#"{"/": "/buy/"}"#), "/buy//", .match),
        c("/a/b/ matches /a/b", one(#"{"/": "/a/b/"}"#), "/a/b", .match),
        c("abc matches /abc", one(#"{"/": "abc"}"#), "/abc", .match),
        c("abc does not match /abcd", one(#"{"/": "abc"}"#), "/abcd", .noMatch),
        c("abc does not match /xabc", one(#"{"/": "abc"}"#), "/xabc", .noMatch),
        c("*abc matches /xabc", one(#"{"/": "*abc"}"#), "/xabc", .match),
        c("abc/* matches /abc", one(#"{"/": "abc/*"}"#), "/abc", .match),
        c("buy/* matches /buy/42", one(#"{"/": "buy/*"}"#), "/buy/42", .match),
        c("//abc matches /abc", one(#"{"/": "//abc"}"#), "/abc", .match),
        c("a/b matches /a/b", one(#"{"/": "a/b"}"#), "/a/b", .match),
        c("/ matches /", one(#"{"/": "/"}"#), "/", .match),
        Case(name: "/ matches the empty path", file: one(#"{"/": "/"}"#), url: "https://example.com", expected: .match),
        c("/ does not match /a", one(#"{"/": "/"}"#), "/a", .noMatch),
        c("/id/???? matches four characters", one(#"{"/": "/id/????"}"#), "/id/4815", .match),
        c("/id/???? does not match three (no slash is added)", one(#"{"/": "/id/????"}"#), "/id/481", .noMatch),
        c("?* needs one character", one(#"{"/": "/a/?*"}"#), "/a/", .noMatch),
        c("?* takes one character", one(#"{"/": "/a/?*"}"#), "/a/b", .match),
        c("** is *", one(#"{"/": "/a/**"}"#), "/a/b/c", .match),
        // Case (§3.3, §5).
        c("case-sensitive by default", one(#"{"/": "/Help/*"}"#), "/help/1", .noMatch),
        c("caseSensitive false folds", one(#"{"/": "/Help/*", "caseSensitive": false}"#), "/HELP/1", .match),
        c("component overrides app defaults", loose, "/loose/1", .match),
        c("app defaults override domain defaults", loose, "/strict/1", .noMatch),
        c("app defaults: exact case matches", loose, "/Strict/1", .match),
        c("misspelt casesensitive is ignored", one(#"{"/": "/foo/*", "casesensitive": false}"#), "/FOO/1", .noMatch),
        c(
            "domain caseSensitive true",
            components(#"{"/": "/foo"}"#, applinks: #""defaults": {"caseSensitive": true}, "#), "/FOO", .noMatch),
        c(
            "domain caseSensitive false",
            components(#"{"/": "/foo"}"#, applinks: #""defaults": {"caseSensitive": false}, "#), "/FOO", .match),
        // Pattern keys and exclude in defaults (docs/association-files.md, "Defaults").
        c(
            "domain default path applies to components without /",
            components(#"{"\u0023": "*"}"#, applinks: #""defaults": {"/": "/foo/*"}, "#), "/bar", .noMatch),
        c(
            "domain default path agrees", components(#"{"\u0023": "*"}"#, applinks: #""defaults": {"/": "/foo/*"}, "#),
            "/foo/1", .match),
        c(
            "app default path applies", components(#"{"\u0023": "*"}"#, entry: #""defaults": {"/": "/foo/*"}, "#),
            "/bar", .noMatch),
        c(
            "domain default exclude", components(#"{"\u0023": "*"}"#, applinks: #""defaults": {"exclude": true}, "#),
            "/bar", .exclude),
        c(
            "domain default query", components(#"{"\u0023": "*"}"#, applinks: #""defaults": {"?": {"id": "??"}}, "#),
            "/bar?id=7", .noMatch),
        c(
            "domain default query violated",
            components(#"{"\u0023": "*"}"#, applinks: #""defaults": {"?": {"id": "??"}}, "#), "/bar?id=7777", .noMatch),
        c(
            "domain default query satisfied",
            components(#"{"\u0023": "*"}"#, applinks: #""defaults": {"?": {"id": "??"}}, "#), "/bar?id=77", .match),
        c(
            "component path overrides default path",
            components(#"{"/": "/bar"}"#, applinks: #""defaults": {"/": "/foo/*"}, "#), "/bar", .match),
        // Query dictionary (docs/association-files.md, "Query items").
        c("{b:*} matches without b", one(#"{"?": {"b": "*"}}"#), "/x?a=1", .match),
        c("{b:?*} needs b", one(#"{"?": {"b": "?*"}}"#), "/x?a=1", .noMatch),
        c("{b:''} matches without b", one(#"{"?": {"b": ""}}"#), "/x?a=1", .match),
        c("{b:1} needs b", one(#"{"?": {"b": "1"}}"#), "/x?a=1", .noMatch),
        c("{b:*} matches no query", one(#"{"?": {"b": "*"}}"#), "/x", .match),
        c("{a:1,b:*} matches ?a=1", one(#"{"?": {"a": "1", "b": "*"}}"#), "/x?a=1", .match),
        c("unlisted items are ignored", one(#"{"?": {"a": "1"}}"#), "/x?a=1&b=2", .match),
        c("a named item must be present", one(#"{"?": {"a": "1"}}"#), "/x?b=2", .noMatch),
        c("repeated name: target first", one(#"{"?": {"id": "42"}}"#), "/x?id=42&id=7", .noMatch),
        c("repeated name: target last", one(#"{"?": {"id": "42"}}"#), "/x?id=7&id=42", .noMatch),
        c("repeated name: target middle", one(#"{"?": {"id": "42"}}"#), "/x?id=7&id=42&id=9", .noMatch),
        c("repeated name: identical values", one(#"{"?": {"id": "7"}}"#), "/x?id=7&id=7", .match),
        c("repeated name: * matches all", one(#"{"?": {"id": "*"}}"#), "/x?id=7&id=42", .match),
        c("repeated name: ?* matches all", one(#"{"?": {"id": "?*"}}"#), "/x?id=7&id=42", .match),
        c("repeated name: empty pattern fails", one(#"{"?": {"id": ""}}"#), "/x?id=7&id=42", .noMatch),
        c("repeated name: joined values do not match", one(#"{"?": {"id": "7,42"}}"#), "/x?id=7&id=42", .noMatch),
        c("repeated name: joined reverse does not match", one(#"{"?": {"id": "42,7"}}"#), "/x?id=42&id=7", .noMatch),
        c("?flag is the empty value", one(#"{"?": {"flag": ""}}"#), "/x?flag", .match),
        c("non-string true ignores the dictionary", one(#"{"?": {"flag": true}}"#), "/x?flag=1", .match),
        c("non-string true, item absent", one(#"{"?": {"flag": true}}"#), "/x?other=1", .match),
        c("non-string false", one(#"{"?": {"flag": false}}"#), "/x?flag=1", .match),
        c("non-string number", one(#"{"?": {"n": 5}}"#), "/x?n=5", .match),
        c("non-string null", one(#"{"?": {"n": null}}"#), "/x?n=5", .match),
        c("non-string beside a string ignores both", one(#"{"?": {"a": "1", "flag": true}}"#), "/x?a=2", .match),
        c("non-string beside a string, agreeing", one(#"{"?": {"a": "1", "flag": true}}"#), "/x?a=1", .match),
        c("array predicate", one(#"{"?": {"a": ["1"]}}"#), "/x?a=2", .match),
        c("object predicate", one(#"{"?": {"a": {"b": "1"}}}"#), "/x?a=2", .match),
        // Query and fragment strings (docs/association-files.md, "2. Components").
        c("whole query exact", one(#"{"?": "a=1"}"#), "/x?a=1", .match),
        c("whole query rejects extra items", one(#"{"?": "a=1"}"#), "/x?a=1&b=2", .noMatch),
        c("whole query * on no query", one(#"{"?": "*"}"#), "/x", .match),
        c("whole query '' on no query", one(#"{"?": ""}"#), "/x", .match),
        c("whole query ?* on no query", one(#"{"?": "?*"}"#), "/x", .noMatch),
        c("whole query a=1 on no query", one(#"{"?": "a=1"}"#), "/x", .noMatch),
        c("fragment * on no fragment", one(#"{"\u0023": "*"}"#), "/x", .match),
        c("fragment '' on no fragment", one(#"{"\u0023": ""}"#), "/x", .match),
        c("fragment ?* on no fragment", one(#"{"\u0023": "?*"}"#), "/x", .noMatch),
        c("fragment ?* with absent fragment and a path", one(#"{"/": "/a", "\u0023": "?*"}"#), "/a", .noMatch),
        // Percent encoding (docs/association-files.md, "2. Components").
        c("default compares encoded", one(#"{"/": "/a%20b"}"#), "/a%20b", .match),
        c("default: literal space never matches", one(#"{"/": "/a b"}"#), "/a%20b", .noMatch),
        c("false decodes the URL", one(#"{"/": "/a b", "percentEncoded": false}"#), "/a%20b", .match),
        c(
            "false: encoded pattern does not match", one(#"{"/": "/a%20b", "percentEncoded": false}"#), "/a%20b",
            .noMatch),
        c("%2F is not a separator by default", one(#"{"/": "/a/b"}"#), "/a%2Fb", .noMatch),
        c("decoding erases the %2F distinction", one(#"{"/": "/a/b", "percentEncoded": false}"#), "/a%2Fb", .match),
        c("hex case is significant", one(#"{"/": "/caf%C3%A9"}"#), "/caf%c3%a9", .noMatch),
        c("hex as written matches", one(#"{"/": "/caf%C3%A9"}"#), "/caf%C3%A9", .match),
        c(
            "Unicode pattern with percentEncoded false", one(#"{"/": "/caf\u00e9", "percentEncoded": false}"#),
            "/caf%C3%A9", .match),
        c("Unicode pattern by default does not match", one(#"{"/": "/caf\u00e9"}"#), "/caf%C3%A9", .noMatch),
        c("Unicode text with wildcard", one(#"{"/": "/café/*", "percentEncoded": false}"#), "/caf%C3%A9/menu", .match),
        c("? is one character after decoding", one(#"{"/": "/?/", "percentEncoded": false}"#), "/%C3%A9/", .match),
        c("? is not two characters", one(#"{"/": "/?/", "percentEncoded": false}"#), "/%C3%A9%C3%A9/", .noMatch),
        c("invalid escapes stay as written", one(#"{"/": "/100%zz", "percentEncoded": false}"#), "/100%zz", .match),
        c("decoded query items", one(#"{"?": {"q": "a b"}, "percentEncoded": false}"#), "/s?q=a%20b", .match),
        // Substitution variables (docs/association-files.md, "Substitution variables").
        c("Apple's restaurant example", restaurant, "/en_US/pizza/", .match),
        c("unlisted value fails", restaurant, "/en_US/tacos/", .noMatch),
        c("unknown locale fails", restaurant, "/qq_ZZ/pizza/", .noMatch),
        c("the literal $(food) is not the variable", restaurant, "/en_US/$(food)/", .noMatch),
        c("region GB", one(#"{"/": "/$(region)/home"}"#), "/GB/home", .match),
        c("region UK is not ISO", one(#"{"/": "/$(region)/home"}"#), "/UK/home", .noMatch),
        c("digit accepts", one(#"{"/": "/id/$(digit)"}"#), "/id/7", .match),
        c("digit rejects", one(#"{"/": "/id/$(digit)"}"#), "/id/x", .noMatch),
        c("digit is one character", one(#"{"/": "/id/$(digit)"}"#), "/id/77", .noMatch),
        c("alpha accepts", one(#"{"/": "/id/$(alpha)"}"#), "/id/q", .match),
        c("alpha rejects", one(#"{"/": "/id/$(alpha)"}"#), "/id/7", .noMatch),
        c("upper accepts", one(#"{"/": "/id/$(upper)"}"#), "/id/Q", .match),
        c("upper rejects", one(#"{"/": "/id/$(upper)"}"#), "/id/q", .noMatch),
        c("lower accepts", one(#"{"/": "/id/$(lower)"}"#), "/id/q", .match),
        c("lower rejects", one(#"{"/": "/id/$(lower)"}"#), "/id/Q", .noMatch),
        c("alnum accepts", one(#"{"/": "/id/$(alnum)"}"#), "/id/7", .match),
        c("alnum rejects", one(#"{"/": "/id/$(alnum)"}"#), "/id/-", .noMatch),
        c("xdigit accepts", one(#"{"/": "/id/$(xdigit)"}"#), "/id/f", .match),
        c("xdigit rejects", one(#"{"/": "/id/$(xdigit)"}"#), "/id/g", .noMatch),
        c("lang accepts a three-letter code", one(#"{"/": "/$(lang)/"}"#), "/haw/", .match),
        c("variables follow caseSensitive", one(#"{"/": "/id/$(upper)", "caseSensitive": false}"#), "/id/q", .match),
        c(
            "values may hold wildcards",
            components(#"{"/": "/$(kind)/x"}"#, applinks: #""substitutionVariables": {"kind": ["a*z"]}, "#), "/abcz/x",
            .match),
        c(
            "wildcard value must still match",
            components(#"{"/": "/$(kind)/x"}"#, applinks: #""substitutionVariables": {"kind": ["a*z"]}, "#), "/abcy/x",
            .noMatch),
        c(
            "each occurrence is one value",
            components(#"{"/": "/$(f)-$(f)"}"#, applinks: #""substitutionVariables": {"f": ["a", "b"]}, "#), "/a-b",
            .match),
        c(
            "custom values fold too",
            components(
                #"{"/": "/$(f)", "caseSensitive": false}"#, applinks: #""substitutionVariables": {"f": ["Pizza"]}, "#),
            "/PIZZA", .match),
        c("undefined variable never matches", one(#"{"/": "/$(nope)"}"#), "/x", .noMatch),
        c(
            "empty variable never matches",
            components(#"{"/": "/$(v)*"}"#, applinks: #""substitutionVariables": {"v": []}, "#), "/x", .noMatch),
        // Order, exclusion, unknown keys (§2.5, §6).
        c(
            "exclude first blocks", one(#"{"/": "/a/private/*", "exclude": true}, {"/": "/a/*"}"#), "/a/private/x",
            .exclude),
        c(
            "general rule still matches", one(#"{"/": "/a/private/*", "exclude": true}, {"/": "/a/*"}"#), "/a/public",
            .match),
        c(
            "exclude after a broader rule is unreachable",
            one(#"{"/": "/a/*"}, {"/": "/a/private/*", "exclude": true}"#), "/a/private/x", .match),
        c("unknown key beside a path", one(#"{"/": "/foo/*", "totallyUnknownKey": "x"}"#), "/foo/1", .match),
        c(
            "unknown key beside a path, other path", one(#"{"/": "/foo/*", "totallyUnknownKey": "x"}"#), "/bar",
            .noMatch),
        c("only unknown keys match everything", one(#"{"totallyUnknownKey": "x"}"#), "/anything", .match),
        c("{} matches everything", one(#"{}"#), "/anything", .match),
        c("nested unknown object", one(#"{"/": "/foo/*", "future": {"a": "b"}}"#), "/foo/1", .match),
        // Legacy formats (docs/association-files.md, "1. The Apple file").
        c("legacy paths positive", legacy, "/wwdc/2015", .match),
        c("legacy NOT exclusion", legacy, "/wwdc/internal/notes", .exclude),
        c("legacy unmatched", legacy, "/other", .noMatch),
        c("legacy paths are case-sensitive", legacy, "/WWDC/2015", .noMatch),
        c(
            "details as a dictionary",
            #"{"applinks": {"apps": [], "details": {"\#(app)": {"paths": ["/wwdc/news/"]}}}}"#, "/wwdc/news/", .match),
        c(
            "appID singular with components",
            #"{"applinks": {"details": [{"appID": "\#(app)", "components": [{"/": "/x"}]}]}}"#, "/x", .match),
        c(
            "paths ignored when components exist",
            #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "paths": ["*"], "components": [{"/": "/x"}]}]}}"#, "/y",
            .noMatch),
        c(
            "entries are tried in order",
            #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "/a"}]}, {"appIDs": ["\#(app)"], "components": [{"/": "/b"}]}]}}"#,
            "/b", .match),
        c("webcredentials alone never match URLs", #"{"webcredentials": {"apps": ["\#(app)"]}}"#, "/x", .noMatch),
        // Host (docs/association-files.md, "Which file applies to a URL").
        Case(
            name: "another host never matches", file: one(#"{"/": "/*"}"#), url: "https://evil.test/anything",
            expected: .noMatch),
        Case(
            name: "hosts compare case-insensitively", file: one(#"{"/": "/*"}"#), url: "https://EXAMPLE.COM/x",
            expected: .match),
        Case(
            name: "no domain skips the host check", file: one(#"{"/": "/*"}"#), url: "https://anywhere.test/x",
            expected: .match, domain: nil),
        Case(
            name: "a port does not change the host", file: one(#"{"/": "/*"}"#), url: "https://example.com:443/x",
            expected: .match),
    ]

    static func decide(_ example: Case) throws -> MatchDecision {
        let report = AssociationFileValidator.validate(Array(example.file.utf8))
        let file = try #require(report.file, "file did not decode: \(report.diagnostics.map(\.messageWithPointer))")
        let matcher = AssociationMatcher(file: file)
        return matcher.decide(try MatchURL(example.url), appID: example.appID, domain: example.domain)
    }

    @Test("decides as Apple's tool recorded", arguments: cases)
    func decides(_ example: Case) throws {
        #expect(try Self.decide(example).outcome == example.expected)
    }

    @Test("decideAll agrees with decide for every app, in one pass")
    func decideAllAgrees() throws {
        for example in Self.cases {
            let file = try #require(AssociationFileValidator.validate(Array(example.file.utf8)).file)
            let matcher = AssociationMatcher(file: file)
            let url = try MatchURL(example.url)
            let all = matcher.decideAll(url, domain: example.domain)
            #expect(all.map(\.appID) == matcher.appIDs)
            for decision in all {
                #expect(
                    decision == matcher.decide(url, appID: decision.appID, domain: example.domain), "\(example.name)")
            }
        }
    }

    @Test("the decision names the deciding entry and rule")
    func decidingRule() throws {
        let file = try #require(AssociationFileValidator.validate(Array(Self.overview.utf8)).file)
        let decision = AssociationMatcher(file: file).decide(
            try MatchURL("https://example.com/help/website/faq"), appID: Self.app)
        #expect(decision.outcome == .exclude)
        #expect(decision.detailsIndex == 0)
        #expect(decision.ruleIndex == 2)
        #expect(decision.rule == #"{"/": "/help/website/*", "exclude": true}"#)
    }

    @Test("hostile patterns finish fast: no exponential backtracking")
    func hostilePattern() throws {
        // The text starts with "b" and the patterns end with "*", so the cheap filters pass
        // and the engines themselves run.
        let file = Self.components(
            #"{"/": "/*a*a*a*a*a*a*a*a*b*"}, {"/": "/$(v)$(v)$(v)$(v)$(v)$(v)$(v)$(v)b*"}"#,
            applinks: #""substitutionVariables": {"v": ["a", "aa", "a*", "*a"]}, "#)
        let matcher = AssociationMatcher(file: try #require(AssociationFileValidator.validate(Array(file.utf8)).file))
        let url = try MatchURL("https://example.com/b" + String(repeating: "a", count: 5000))
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(matcher.decide(url, appID: Self.app).outcome == .noMatch) }
        #expect(elapsed < .seconds(2), "took \(elapsed)")
    }

    @Test("URLs that are not absolute are refused")
    func invalidURLs() {
        #expect(throws: MatchURL.InvalidURL.self) { try MatchURL("/just/a/path") }
        #expect(throws: MatchURL.InvalidURL.self) { try MatchURL("https:///nohost") }
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
