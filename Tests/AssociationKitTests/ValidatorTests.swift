import Foundation
import Testing

@testable import AssociationKit

/// Every diagnostic code, on a file that triggers it and on a near-identical one that does not.
@Suite("Validator: every code both ways")
struct ValidatorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var code: DiagnosticCode
        var triggering: [UInt8]
        var clean: [UInt8]
        var testDescription: String { code.rawValue }

        init(_ code: DiagnosticCode, _ triggering: String, _ clean: String) {
            self.init(code, bytes: Array(triggering.utf8), clean: Array(clean.utf8))
        }

        init(_ code: DiagnosticCode, bytes: [UInt8], clean: [UInt8]) {
            self.code = code
            self.triggering = bytes
            self.clean = clean
        }
    }

    /// A modern file with one entry for one app; `components` and `extra` fill the holes.
    static func file(
        components: String = #"{"/": "/buy/*"}"#, entry: String = "", applinks: String = "", extra: String = ""
    ) -> String {
        """
        {"applinks": {\(applinks)"details": [{"appIDs": ["ABCDE12345.com.example.app"], \(entry)"components": [\(components)]}]}\(extra)}
        """
    }

    /// `$(v)` used `uses` times, v having 1,000 wildcard values `*0` … `*999`.
    static func expensive(uses: Int) -> String {
        let values = (0..<1_000).map { "\"*\($0)\"" }.joined(separator: ", ")
        return file(
            components: #"{"/": "/"# + String(repeating: "$(v)", count: uses) + #""}"#,
            applinks: #""substitutionVariables": {"v": [\#(values)]}, "#)
    }

    static let legacy =
        #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/buy/*"]}]}}"#
    static let base = file()

    static let cases: [Case] = [
        Case(.jsonSyntax, "{\"applinks\": x}", base),
        Case(.jsonComment, "{ // c\n\"webcredentials\": {\"apps\": []}}", base),
        Case(.jsonTrailingComma, file(components: #"{"/": "/a"},"#), base),
        Case(.jsonInvalidNumber, #"{"applinks": 01}"#, base),
        Case(.jsonNonFiniteNumber, #"{"applinks": NaN}"#, base),
        Case(.jsonControlCharacter, file(components: "{\"/\": \"/a\tb\"}"), base),
        Case(
            .jsonInvalidUTF8, bytes: Array(file(components: #"{"/": "/a"#).utf8) + [0xFE] + Array(#""}]}]}}"#.utf8),
            clean: Array(base.utf8)),
        Case(.jsonInvalidEscape, file(components: #"{"/": "/a\qb"}"#), base),
        Case(.jsonLoneSurrogate, file(components: #"{"/": "/a\uD83D"}"#), base),
        Case(.jsonTrailingContent, base + " {}", base),
        Case(.jsonTooDeep, String(repeating: "[", count: 400), base),
        Case(.jsonByteOrderMark, bytes: [0xEF, 0xBB, 0xBF] + Array(base.utf8), clean: Array(base.utf8)),
        Case(.jsonUnexpectedEnd, #"{"applinks": {"details": ["#, base),
        Case(.jsonDuplicateKey, file(components: #"{"/": "/a", "/": "/b"}"#), base),
        Case(.jsonSingleQuote, file(components: #"{"/": '/it\'s'}"#), file(components: #"{"/": "/it's"}"#)),
        Case(.jsonCurlyQuote, file(components: #"{"/": “/a”}"#), file(components: #"{"/": "/“a”"}"#)),

        Case(
            .fileTooLarge, file(components: #"{"/": "/a", "comment": "\#(String(repeating: "x", count: 131_072))"}"#),
            base),
        Case(.topLevelNotObject, "[]", base),
        Case(.noServices, #"{"comment": "nothing here"}"#, base),
        Case(.unknownKey, file(components: #"{"/": "/a", "casesensitive": false}"#), base),
        Case(.wrongType, file(components: #"{"/": "/a", "exclude": "true"}"#), base),

        Case(.noDetails, #"{"applinks": {"details": []}}"#, base),
        Case(
            .detailsDictionary,
            #"{"applinks": {"apps": [], "details": {"ABCDE12345.com.example.app": {"paths": ["/a"]}}}}"#, legacy),
        Case(.legacyAppsNotEmpty, legacy.replacingOccurrences(of: #""apps": []"#, with: #""apps": ["x"]"#), legacy),
        Case(.legacyAppsMissing, legacy.replacingOccurrences(of: #""apps": [], "#, with: ""), legacy),
        Case(.pathsIgnored, file(entry: #""paths": ["/a"], "#), base),
        Case(.modernOnly, base, legacy),
        Case(
            .mixedFormats,
            #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "components": [{"/": "/a"}]}]}}"#, base),
        Case(.appIDAndAppIDs, file(entry: #""appID": "ABCDE12345.com.example.other", "#), base),
        Case(.detailWithoutApp, #"{"applinks": {"details": [{"components": [{"/": "/a"}]}]}}"#, base),
        Case(.detailWithoutRules, #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"]}]}}"#, base),
        Case(
            .detailsOutsideApplinks, #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"], "details": []}}"#,
            #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#),

        Case(.malformedAppID, base.replacingOccurrences(of: "ABCDE12345.com.example.app", with: "com_example"), base),
        Case(.unusualAppIDPrefix, base.replacingOccurrences(of: "ABCDE12345", with: "abcde12345"), base),
        Case(
            .emptyAppList, #"{"webcredentials": {"apps": []}}"#,
            #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#),
        Case(
            .duplicateAppID,
            base.replacingOccurrences(
                of: #"["ABCDE12345.com.example.app"]"#,
                with: #"["ABCDE12345.com.example.app", "ABCDE12345.com.example.app"]"#), base),
        Case(
            .appStoreIDPrefix, base.replacingOccurrences(of: "ABCDE12345", with: "6744744763"),
            base.replacingOccurrences(of: "ABCDE12345", with: "6744744A63")),
        Case(
            .appInSeveralDetails,
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a"}]}, {"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/b"}]}]}}"#,
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a"}]}, {"appIDs": ["ABCDE12345.com.example.other"], "components": [{"/": "/b"}]}]}}"#
        ),

        Case(
            .queryDictionaryIgnored, file(components: #"{"/": "/a", "?": {"id": "1", "flag": true}}"#),
            file(components: #"{"/": "/a", "?": {"id": "1", "flag": "true"}}"#)),
        Case(
            .unreachableComponent, file(components: #"{"/": "/a/*"}, {"/": "/a/b"}"#),
            file(components: #"{"/": "/a/b"}, {"/": "/a/*"}"#)),
        Case(
            .unreachableExclusion, file(components: #"{"/": "/a/*"}, {"/": "/a/private/*", "exclude": true}"#),
            file(components: #"{"/": "/a/private/*", "exclude": true}, {"/": "/a/*"}"#)),
        Case(
            .exclusionMatchesAbsentItem, file(components: #"{"?": {"promo": "*"}, "exclude": true}, {"/": "/a"}"#),
            file(components: #"{"?": {"promo": "?*"}, "exclude": true}, {"/": "/a"}"#)),
        Case(
            .unencodedPattern, file(components: #"{"/": "/café/*"}"#),
            file(components: #"{"/": "/café/*", "percentEncoded": false}"#)),
        Case(
            .encodedPatternDecoded, file(components: #"{"/": "/a%20b", "percentEncoded": false}"#),
            file(components: #"{"/": "/a%20b"}"#)),
        Case(
            .separatorInPathPattern, file(components: #"{"/": "/search?q=*"}"#),
            file(components: #"{"/": "/search", "?": {"q": "*"}}"#)),
        Case(.componentMatchesEverything, file(components: #"{}"#), file(components: #"{"/": "*"}"#)),
        Case(
            .malformedNotPrefix, legacy.replacingOccurrences(of: #"["/buy/*"]"#, with: #"["NOT/buy/x", "/buy/*"]"#),
            legacy.replacingOccurrences(of: #"["/buy/*"]"#, with: #"["NOT /buy/x", "/buy/*"]"#)),
        Case(
            .patternStartsWithSeparator, file(components: #"{"/": "/a", "?": "?id=1"}"#),
            file(components: #"{"/": "/a", "?": "id=1"}"#)),
        Case(.expensivePattern, expensive(uses: 200), expensive(uses: 20)),

        Case(
            .invalidVariableName,
            file(components: #"{"/": "/$(a(b)"}"#, applinks: #""substitutionVariables": {"a(b": ["x"]}, "#),
            file(components: #"{"/": "/$(ab)"}"#, applinks: #""substitutionVariables": {"ab": ["x"]}, "#)),
        Case(
            .variableValueReferencesVariable,
            file(components: #"{"/": "/$(v)"}"#, applinks: #""substitutionVariables": {"v": ["$(digit)"]}, "#),
            file(components: #"{"/": "/$(v)"}"#, applinks: #""substitutionVariables": {"v": ["1"]}, "#)),
        Case(
            .undefinedVariable,
            file(components: #"{"/": "/$(fod)"}"#, applinks: #""substitutionVariables": {"food": ["pizza"]}, "#),
            file(components: #"{"/": "/$(food)"}"#, applinks: #""substitutionVariables": {"food": ["pizza"]}, "#)),
        Case(.unterminatedVariable, file(components: #"{"/": "/$(lang"}"#), file(components: #"{"/": "/$(lang)"}"#)),
        Case(
            .emptyVariable, file(components: #"{"/": "/$(v)"}"#, applinks: #""substitutionVariables": {"v": []}, "#),
            file(components: #"{"/": "/$(v)"}"#, applinks: #""substitutionVariables": {"v": ["x"]}, "#)),
        Case(
            .variableShadowsPredefined,
            file(components: #"{"/": "/$(digit)"}"#, applinks: #""substitutionVariables": {"digit": ["1"]}, "#),
            file(components: #"{"/": "/$(digit)"}"#)),
        Case(.unusedVariable, file(applinks: #""substitutionVariables": {"v": ["x"]}, "#), base),
    ]

    @Test("every apple-app-site-association and JSON code is covered by this table")
    func everyCodeIsCovered() {
        let covered = Set(Self.cases.map(\.code))
        // ADL, EXP, FBK, SIG, WAN, XPL, SEC and WKN codes have their own tables (AssetLinksTests,
        // ExpectationTests, FallbackTests, SignedFileTests, PasskeyTests, PlatformComparisonTests,
        // WellKnownValidatorTests).
        let missing = DiagnosticCode.allCases.filter {
            !["ADL", "EXP", "FBK", "SIG", "WAN", "XPL", "SEC", "WKN"].contains(where: $0.rawValue.hasPrefix)
                && !covered.contains($0)
        }
        #expect(missing.isEmpty, "no case for \(missing.map(\.rawValue))")
    }

    @Test("the code is reported with its severity on the triggering file", arguments: cases)
    func triggers(_ example: Case) {
        let found = AssociationFileValidator.validate(example.triggering).diagnostics.filter { $0.code == example.code }
        #expect(!found.isEmpty, "\(example.code.rawValue) not reported")
        #expect(found.allSatisfy { $0.severity == example.code.severity })
    }

    @Test("the code is not reported on the clean file", arguments: cases)
    func doesNotTrigger(_ example: Case) {
        let report = AssociationFileValidator.validate(example.clean)
        #expect(
            !report.diagnostics.contains { $0.code == example.code }, "\(report.diagnostics.map(\.messageWithPointer))")
    }

    @Test("a trailing comma on line 4 is an error on line 4 at the comma")
    func trailingCommaPosition() throws {
        let text = """
            {
              "applinks": {
                "details": [
                  { "appIDs": ["ABCDE12345.com.example.app"], "components": [{ "/": "/a" }], },
                ]
              }
            }
            """
        let commas = AssociationFileValidator.validate(Array(text.utf8)).diagnostics.filter {
            $0.code == .jsonTrailingComma
        }
        // The second, after the entry, is read past too and reported on its own.
        #expect(commas.map(\.location.line) == [4, 4])
        let error = try #require(commas.first)
        #expect(error.code == .jsonTrailingComma)
        #expect(error.location.line == 4)
        #expect(error.location.column == 80)
        #expect(error.pointer == "/applinks/details/0")
    }

    @Test("one run shows every JSON mistake and what is wrong inside; no file comes back to serve or match")
    func everyProblemAtOnce() {
        let text = """
            {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [
              {"/": ["/a"],},
              {"/": ["/b"],},
            ]}]}}
            """
        let report = AssociationFileValidator.validate(Array(text.utf8))
        let errors = report.diagnostics.filter { $0.severity == .error }
        #expect(
            errors.map(\.code) == [.wrongType, .jsonTrailingComma, .wrongType, .jsonTrailingComma, .jsonTrailingComma])
        #expect(errors.map(\.location.line) == [2, 2, 3, 3, 3])
        #expect(report.file == nil)
        #expect(!report.isValid)
        // Without the mistakes the same file decodes and is returned.
        let fixed = text.replacingOccurrences(of: ",}", with: "}").replacingOccurrences(of: "},\n]", with: "}\n]")
        #expect(AssociationFileValidator.validate(Array(fixed.utf8)).file != nil)
    }

    @Test("appID repeating an element of appIDs is one finding (AASA108), not also a duplicate (AASA204)")
    func appIDRepeatedInAppIDs() {
        let codes = { (entry: String) in
            AssociationFileValidator.validate(Array(Self.file(entry: entry).utf8)).diagnostics.map(\.code)
                .filter { [.appIDAndAppIDs, .duplicateAppID].contains($0) }
        }
        #expect(codes(#""appID": "ABCDE12345.com.example.app", "#) == [.appIDAndAppIDs])
        #expect(codes(#""appID": "ABCDE12345.com.example.other", "#) == [.appIDAndAppIDs])
        let repeated = AssociationFileValidator.validate(
            Array(Self.file(entry: #""appID": "ABCDE12345.com.example.app", "#).utf8)
        ).diagnostics.first { $0.code == .appIDAndAppIDs }
        #expect(repeated?.message.hasPrefix("appID repeats ABCDE12345.com.example.app") == true)
        #expect(repeated?.pointer == "/applinks/details/0/appID")
        // A real duplicate inside appIDs is still one.
        let twice = Self.base.replacingOccurrences(
            of: #"["ABCDE12345.com.example.app"]"#,
            with: #"["ABCDE12345.com.example.app", "ABCDE12345.com.example.app"]"#)
        #expect(
            AssociationFileValidator.validate(Array(twice.utf8)).diagnostics.filter { $0.code == .duplicateAppID }.count
                == 1)
    }

    @Test(
        "an app ID prefix that is not a 10-character team ID is an error, with the fix",
        arguments: [
            ("com.acmeshop.app", "\"com.acmeshop.app\" has no team ID: write TEAMID.com.acmeshop.app"),
            ("abcde12345.com.example.app", "prefix \"abcde12345\" is not a team ID"),
            ("ABCD1234.com.example.app", "prefix \"ABCD1234\" is not a team ID"),
            ("ABCDE123456.com.example.app", "prefix \"ABCDE123456\" is not a team ID"),
        ])
    func prefixWithoutTeamID(app: String, message: String) {
        let diagnostics = AssociationFileValidator.validate(
            Array(Self.base.replacingOccurrences(of: "ABCDE12345.com.example.app", with: app).utf8)
        ).diagnostics
        let found = diagnostics.first { $0.code == .unusualAppIDPrefix }
        #expect(found?.severity == .error, "\(app)")
        #expect(found?.message.hasPrefix(message) == true, "\(found?.message ?? "none")")
    }

    @Test("a ten-digit prefix is one finding, the App Store ID one, not also an unusual prefix")
    func appStoreIDPrefix() {
        let codes = AssociationFileValidator.validate(
            Array(Self.base.replacingOccurrences(of: "ABCDE12345", with: "6744744763").utf8)
        ).diagnostics.map(\.code).filter { $0.rawValue.hasPrefix("AASA2") }
        #expect(codes == [.appStoreIDPrefix])
        // Still a warning: a team ID of ten digits is rare but possible.
        #expect(DiagnosticCode.appStoreIDPrefix.severity == .warning)
        // Nine or eleven digits are not an App Store ID shape here; AASA202 speaks for them.
        for prefix in ["674474476", "67447447631"] {
            let other = AssociationFileValidator.validate(
                Array(Self.base.replacingOccurrences(of: "ABCDE12345", with: prefix).utf8)
            ).diagnostics.map(\.code)
            #expect(!other.contains(.appStoreIDPrefix), "\(prefix)")
        }
    }

    @Test("diagnostics carry the JSON pointer of the offending value")
    func pointers() {
        let report = AssociationFileValidator.validate(Array(Self.file(components: #"{"/": "/a", "exclude": 1}"#).utf8))
        let wrongType = report.diagnostics.first { $0.code == .wrongType }
        #expect(wrongType?.pointer == "/applinks/details/0/components/0/exclude")
        #expect(report.diagnostics.first { $0.code == .unknownKey } == nil)
    }

    @Test("past 200 diagnostics a file's findings are counted, not listed, and still make it invalid")
    func diagnosticsAreCapped() {
        let wrongTyped = Array(
            ("{\"applinks\": {\"details\": [" + Array(repeating: "1", count: 5_000).joined(separator: ",") + "]}}").utf8
        )
        let report = AssociationFileValidator.validate(wrongTyped)
        #expect(report.diagnostics.count == OmittedDiagnostics.limit)
        #expect(report.omitted.count > 4_000)
        #expect(report.omitted.errors == report.omitted.count)
        #expect(!report.isValid)
        // The kept ones are the first in file order, with their pointers.
        #expect(report.diagnostics.map(\.location.offset) == report.diagnostics.map(\.location.offset).sorted())
        #expect(report.diagnostics.first { $0.code == .wrongType }?.pointer == "/applinks/details/0")
    }

    @Test("many unclosed $( are one unterminated-variable finding and literal text")
    func unclosedVariables() {
        let report = AssociationFileValidator.validate(
            Array(Self.file(components: #"{"/": "/"# + String(repeating: "$(", count: 5_000) + #""}"#).utf8))
        #expect(report.diagnostics.filter { $0.code == .unterminatedVariable }.count == 1)
        let syntax = PatternSyntax.tokenize("/$(a$(b)$(")
        #expect(syntax.variableNames == ["a$(b"])
        #expect(syntax.unterminatedVariableAt == 8)
    }

    @Test("a list of the wrong type is reported once, not also as empty; a quoted yes suggests true")
    func wording() {
        for text in [
            #"{"webcredentials": {"apps": "ABCDE12345.com.example.app"}}"#,
            Self.file(entry: "").replacingOccurrences(
                of: #"["ABCDE12345.com.example.app"]"#, with: #""ABCDE12345.com.example.app""#),
        ] {
            let codes = AssociationFileValidator.validate(Array(text.utf8)).diagnostics.filter { $0.severity != .info }
                .map(\.code)
            #expect(codes == [.wrongType], "\(text): \(codes)")
        }
        let yes = AssociationFileValidator.validate(
            Array(Self.file(components: #"{"/": "/a", "exclude": "yes"}"#).utf8)
        ).diagnostics
        #expect(yes.first { $0.code == .wrongType }?.message.contains("write true, without quotes") == true)
        let quoted = AssociationFileValidator.validate(
            Array(Self.file(components: #"{"/": "/a", "exclude": "false"}"#).utf8)
        ).diagnostics
        #expect(quoted.first { $0.code == .wrongType }?.message.contains("write false without quotes") == true)
    }

    @Test("128 KiB exactly is allowed; one byte more is not")
    func sizeBoundary() {
        let base = Array(Self.base.utf8)
        let padded = { (size: Int) in base + [UInt8](repeating: UInt8(ascii: " "), count: size - base.count) }
        #expect(!AssociationFileValidator.validate(padded(131_072)).diagnostics.contains { $0.code == .fileTooLarge })
        #expect(AssociationFileValidator.validate(padded(131_073)).diagnostics.contains { $0.code == .fileTooLarge })
    }
}
