import Testing

@testable import AssociationKit

/// The expressions of AOSP's DalComponentParserTest.kt, for each version of StatementService's
/// parser: the PatternMatcher type and pattern each yields, and for the newest the strings
/// its test says the PatternMatcher matches and does not (docs/association-files.md,
/// "Android's matching"). Test data from AOSP (Apache-2.0), written as our table.
@Suite("Android's parser and PatternMatcher on AOSP's vectors")
struct AndroidParserVectorTests {
    typealias Kind = AndroidPattern.Kind

    /// packages/StatementService/tests/.../DalComponentParserTest.kt as in yaap/frameworks_base
    /// at f6328b6 (the newest parser).
    static let newest: [(String, Kind, String, [String], [String])] = [
        ("foobar", .literal, "foobar", ["foobar"], ["foo.bar", #"foo\.bar"#]),
        ("foo.bar", .literal, "foo.bar", ["foo.bar"], ["foobar", #"foo\.bar"#, "foodbar"]),
        ("foo*", .prefix, "foo", ["foo", "foobar", "foo.bar", #"foo\.bar"#], ["fo", "barfoo"]),
        ("foo.*", .prefix, "foo.", ["foo.", "foo.bar", "foo..."], ["foo", "fo.", "foobar"]),
        (
            "*bar", .simpleGlob, ".*bar", ["foobar", "foo.bar", "bar", ".bar"],
            ["foo", "barfoo", "barfoobar", "abcbar"]
        ),
        ("*.bar", .simpleGlob, #".*\.bar"#, [".bar", "foo.bar"], ["bar", "foobar", ".bar.bar", "foo.b.bar"]),
        ("foo*bar", .simpleGlob, "foo.*bar", ["foobar", "foo.bar", "foofoobar"], ["foobarbar", "f.bar"]),
        (
            #"foo\*bar"#, .simpleGlob, #"foo\\.*bar"#, [#"foo\bar"#, #"foo\.bar"#, #"foo\foobar"#],
            ["foobarbar", "f.bar"]
        ),
        ("foo.*bar", .simpleGlob, #"foo\..*bar"#, ["foo.bar", "foo.foobar"], ["foobar", "foo.barbar"]),
        ("foo*.bar", .simpleGlob, #"foo.*\.bar"#, ["foo.bar", "foobar.bar"], ["foobar", "foo.bar.bar"]),
        (
            "*foo*bar", .simpleGlob, ".*foo.*bar", [".foo.bar", "xfoozbar", "foobar", "foo.bar"],
            ["barfoo", "foobbar", "ffoobar"]
        ),
        ("foo?bar", .simpleGlob, "foo.bar", ["foo.bar", "foobbar"], ["foobar"]),
        ("foo.?bar", .simpleGlob, #"foo\..bar"#, ["foo..bar", "foo.bbar"], ["foobar", "foo.bar"]),
        ("foo?.bar", .simpleGlob, #"foo.\.bar"#, ["foo..bar", "fooo.bar"], ["foobar", "foo.bar"]),
        ("?bar", .simpleGlob, ".bar", [".bar", "fbar"], ["bar", "foobar"]),
        ("foo?", .simpleGlob, "foo.", ["foo.", "foob"], ["foo", "foobar"]),
        ("fo?b*r", .simpleGlob, "fo.b.*r", ["foobar", "fo.br", "fobbbbr"], ["foobrr", "fobar"]),
        ("foo*?bar", .simpleGlob, "foo.*.bar", ["foo.bar", "foofoo.bar", "foobar.bar"], ["foobar", "foobarbar"]),
        ("^fo+b*r", .simpleGlob, "^fo+b.*r", ["^fo+bar", "^fo+br", "^fo+bbbbr"], ["foobar", "fobr"]),
        ("?*bar", .simpleGlob, "..*bar", ["bbar", ".bar", "foo.bar"], ["bar"]),
        (
            "foo?*bar", .simpleGlob, "foo..*bar", ["foo.bar", "foodbar", "foofoobar", "foobarbar"],
            ["foobar", "foo.bar.bar"]
        ),
        (
            "foo?*bar*", .simpleGlob, "foo..*bar.*",
            ["foo.bar", "foodbar", "foo..bar", "foobarbar", "foo.bar.bar.foo"],
            ["foobar", "foo.ba.bar"]
        ),
        ("foo?*bar.", .simpleGlob, #"foo..*bar\."#, ["foo.bar.", "foo..bar."], ["foobar.", #"foo.bar\."#]),
        (
            "foo?*bar.*", .simpleGlob, #"foo..*bar\..*"#, ["foo.bar.", "foo..bar.", "foodbar.bar"],
            ["foobar.", "foo.bar"]
        ),
        ("bar?*", .simpleGlob, "bar..*", ["barfoo", "bar."], ["bar", "foobar"]),
        ("foo[a-z]", .literal, "foo[a-z]", ["foo[a-z]"], ["fooa"]),
        ("foo[a-z]+", .literal, "foo[a-z]+", ["foo[a-z]+"], ["foo[a-z]", "foozz"]),
        ("foo[a-z]*", .prefix, "foo[a-z]", ["foo[a-z]", "foo[a-z]bar"], ["foo", "fooz"]),
        ("[a-z]*bar", .simpleGlob, "[a-z].*bar", ["[a-z].bar", "[a-z]bar"], ["abar"]),
        ("foo[a-z]?bar", .simpleGlob, "foo[a-z].bar", ["foo[a-z].bar", "foo[a-z]bbar"], ["fooz.bar"]),
        ("foo[a-z]?*", .simpleGlob, "foo[a-z]..*", ["foo[a-z]bar"], ["foodbar"]),
        ("^fo+[a-z]?*", .simpleGlob, "^fo+[a-z]..*", ["^fo+[a-z]bar"], ["foobar", "foabar"]),
        ("fo{2}", .literal, "fo{2}", ["fo{2}"], ["foo"]),
        ("fo{2}+", .literal, "fo{2}+", ["fo{2}+"], ["foo"]),
        ("fo{2}*", .prefix, "fo{2}", ["fo{2}", "fo{2}bar"], ["foobar"]),
        ("fo{2}*bar", .simpleGlob, "fo{2}.*bar", ["fo{2}.bar"], ["foo.bar"]),
        ("fo{2}?*", .simpleGlob, "fo{2}..*", ["fo{2}.", "fo{2}bar"], ["foobar"]),
    ]

    /// The same test as in muhomorr/platform_frameworks_base-15 at bfa4a63 (Android 15).
    static let android15: [(String, Kind, String)] = [
        ("foobar", .literal, "foobar"), ("foo.bar", .simpleGlob, #"foo\.bar"#), ("foo*", .prefix, "foo"),
        ("foo.*", .simpleGlob, #"foo\..*"#), ("*bar", .simpleGlob, ".*bar"), ("foo*bar", .simpleGlob, "foo.*bar"),
        ("foo.*bar", .simpleGlob, #"foo\..*bar"#), ("foo*.bar", .simpleGlob, #"foo.*\.bar"#),
        ("*foo*bar", .simpleGlob, ".*foo.*bar"), ("foo?bar", .simpleGlob, "foo.bar"),
        ("foo.?bar", .simpleGlob, #"foo\..bar"#), ("foo?.bar", .simpleGlob, #"foo.\.bar"#),
        ("?bar", .simpleGlob, ".bar"),
        ("foo?", .simpleGlob, "foo."), ("fo?b*r", .simpleGlob, "fo.b.*r"), ("?*bar", .advancedGlob, ".+bar"),
        ("foo?*bar", .advancedGlob, "foo.+bar"), ("foo?*bar*", .advancedGlob, "foo.+bar.*"),
        ("foo?*bar.", .advancedGlob, #"foo.+bar\."#), ("foo?*bar.*", .advancedGlob, #"foo.+bar\..*"#),
        ("foo*?bar", .simpleGlob, "foo.*.bar"), ("foo[a-z]", .literal, "foo[a-z]"),
        ("foo[a-z]+", .literal, "foo[a-z]+"), ("foo[a-z]*", .prefix, "foo[a-z]"),
        ("[a-z]*bar", .simpleGlob, "[a-z].*bar"), ("foo[a-z]?bar", .simpleGlob, "foo[a-z].bar"),
        ("foo[a-z]?*bar", .advancedGlob, #"foo\[a-z\].+bar"#), ("fo{2}", .literal, "fo{2}"),
        ("fo{2}+", .literal, "fo{2}+"), ("fo{2}*", .prefix, "fo{2}"), ("fo{2}*bar", .simpleGlob, "fo{2}.*bar"),
        ("fo{2}?*", .advancedGlob, #"fo\{2\}.+"#), ("foo{2}?*bar", .advancedGlob, #"foo\{2\}.+bar"#),
    ]

    /// The same test as in aosp-mirror/platform_frameworks_base at ee84686 (the first parser).
    static let android15First: [(String, Kind, String)] = [
        ("foobar", .literal, "foobar"), ("foo.bar", .literal, #"foo\.bar"#), ("foo*", .prefix, "foo"),
        ("*bar", .simpleGlob, ".*bar"), ("foo*bar", .simpleGlob, "foo.*bar"), ("foo.*bar", .simpleGlob, #"foo\..*bar"#),
        ("*foo*bar", .simpleGlob, ".*foo.*bar"), ("foo?bar", .simpleGlob, "foo.bar"),
        ("foo.?bar", .simpleGlob, #"foo\..bar"#), ("?bar", .simpleGlob, ".bar"), ("foo?", .simpleGlob, "foo."),
        ("fo?b*r", .simpleGlob, "fo.b.*r"), ("?*bar", .advancedGlob, ".+bar"), ("foo?*bar", .advancedGlob, "foo.+bar"),
        ("foo?*bar*", .advancedGlob, "foo.+bar.*"), ("foo*?bar", .simpleGlob, "foo.*.bar"),
        ("foo[a-z]", .literal, "foo[a-z]"), ("foo[a-z]+", .literal, "foo[a-z]+"), ("foo[a-z]*", .prefix, "foo[a-z]"),
        ("[a-z]*bar", .simpleGlob, "[a-z].*bar"), ("foo[a-z]?bar", .simpleGlob, "foo[a-z].bar"),
        ("foo[a-z]?*bar", .advancedGlob, #"foo\[a-z\].+bar"#), ("fo{2}", .literal, "fo{2}"),
        ("fo{2}+", .literal, "fo{2}+"), ("fo{2}*", .prefix, "fo{2}"), ("fo{2}*bar", .simpleGlob, "fo{2}.*bar"),
        ("fo{2}?*", .advancedGlob, #"fo\{2\}.+"#), ("foo{2}?*bar", .advancedGlob, #"foo\{2\}.+bar"#),
    ]

    @Test("the newest parser: type, pattern, and what the PatternMatcher matches", arguments: newest)
    func newestVectors(_ vector: (String, Kind, String, [String], [String])) {
        let (expression, kind, pattern, matching, failing) = vector
        let parsed = DalExpressionParser.parse(expression, .newest)
        #expect(parsed.kind == kind && parsed.string == pattern, "\(expression): \(parsed.kind) \(parsed.string)")
        for text in matching { #expect(parsed.matches(Array(text.utf16)), "\(expression) should match \(text)") }
        for text in failing { #expect(!parsed.matches(Array(text.utf16)), "\(expression) should not match \(text)") }
    }

    @Test("the same vectors through the matcher `match` uses, as a fragment rule", arguments: newest)
    func throughTheMatcher(_ vector: (String, Kind, String, [String], [String])) throws {
        let (expression, _, _, matching, failing) = vector
        let rule = "{\"#\": \(JSONWriter.quoted(expression))}"
        let file = AssetLinksTests.file(AssetLinksTests.statement(extra: AssetLinksTests.rules(rule)))
        let matcher = AssetLinksMatcher(file: try #require(AssetLinksValidator.validate(Array(file.utf8)).file))
        for (texts, outcome) in [(matching, MatchDecision.Outcome.match), (failing, .noMatch)] {
            for text in texts {
                let decision = matcher.decide(try MatchURL("https://example.com/#" + text), package: "com.example.app")
                #expect(decision.outcome == outcome, "\(expression) on #\(text): \(decision.reason)")
            }
        }
    }

    @Test("Android 15's parsers: type and pattern")
    func android15Vectors() {
        for (version, table) in [
            (DalExpressionParser.Version.android15, Self.android15), (.android15First, Self.android15First),
        ] {
            for (expression, kind, pattern) in table {
                let parsed = DalExpressionParser.parse(expression, version)
                #expect(parsed.kind == kind && parsed.string == pattern, "\(version) \(expression): \(parsed.string)")
            }
        }
        for version in DalExpressionParser.Version.allCases {
            #expect(DalExpressionParser.parse("", version).kind == .refused)
        }
    }

    /// Pattern type and text, subject, and PatternMatcher's answer: the advanced glob's greedy
    /// tokens and the simple glob's corners.
    static let patterns: [(Kind, String, String, Bool)] = [
        (.advancedGlob, "foo.+bar", "fooxbar", false), (.advancedGlob, "foo.+", "foox", true),
        (.advancedGlob, "foo.+", "foo", false), (.advancedGlob, "[a-c]+x", "abcx", true),
        (.advancedGlob, "[^a-c]{2}", "xy", true), (.advancedGlob, "[^a-c]{2}", "xa", false),
        (.advancedGlob, "a{1,}b", "aaab", true), (.advancedGlob, "*a", "a", false), (.advancedGlob, "[]", "", false),
        (.simpleGlob, #"a\.c"#, "abc", true), (.simpleGlob, "a*b", "aaab", true), (.simpleGlob, "a*b", "b", true),
        (.simpleGlob, ".*", "", true), (.simpleGlob, "", "", true), (.simpleGlob, "x.*", "x", true),
        (.literal, "/a", "/a", true), (.prefix, "/a", "/ab", true), (.refused, "", "", false),
    ]

    @Test("PatternMatcher's corners", arguments: patterns)
    func corners(_ row: (Kind, String, String, Bool)) {
        let (kind, pattern, subject, expected) = row
        #expect(AndroidPattern(kind, pattern).matches(Array(subject.utf16)) == expected, "\(pattern) on \(subject)")
    }
}
