import Testing

@testable import AssociationKit

/// Files shaped like the ones teams ship: Apple's documented examples and the mistakes
/// found in real deployed files.
@Suite("Real-world files")
struct RealWorldFileTests {
    static func codes(_ text: String) -> [DiagnosticCode] {
        AssociationFileValidator.validate(Array(text.utf8)).diagnostics.map(\.code)
    }

    static let appleOverview = """
        {
          "applinks": {
              "details": [
                {
                  "appIDs": [ "ABCDE12345.com.example.app", "ABCDE12345.com.example.app2" ],
                  "components": [
                    { "#": "no_universal_links", "exclude": true, "comment": "Matches any URL with a fragment that equals no_universal_links and instructs the system not to open it as a universal link." },
                    { "/": "/buy/*", "comment": "Matches any URL with a path that starts with /buy/." },
                    { "/": "/help/website/*", "exclude": true, "comment": "Matches any URL with a path that starts with /help/website/ and instructs the system not to open it as a universal link." },
                    { "/": "/help/*", "?": { "articleNumber": "????" }, "comment": "Matches any URL with a path that starts with /help/ and that has a query item with name 'articleNumber' and a value of exactly four characters." }
                  ]
                }
              ]
          },
          "webcredentials": {
              "apps": [ "ABCDE12345.com.example.app" ]
          },
          "appclips": {
              "apps": ["ABCDE12345.com.example.MyApp.Clip"]
          }
        }
        """

    static let appleSubstitution = """
        {
          "applinks": {
            "substitutionVariables": { "food": [ "burrito", "pizza", "sushi", "samosa" ] },
            "details": [{
              "appIDs": [ "ABCDE12345.com.example.app" ],
              "components": [ { "/": "/$(lang)_$(region)/$(food)/" } ]
            }]
          }
        }
        """

    static let appleLegacy = """
        {
            "applinks": {
                "apps": [],
                "details": [
                    { "appID": "9JA89QQLNQ.com.apple.wwdc", "paths": [ "/wwdc/news/", "/videos/wwdc/2015/*" ] },
                    { "appID": "ABCD1234.com.apple.wwdc", "paths": [ "*" ] }
                ]
            }
        }
        """

    @Test("Apple's documented examples are valid, but for the archived guide's 8-character prefix")
    func appleExamples() {
        for text in [Self.appleOverview, Self.appleSubstitution] {
            let report = AssociationFileValidator.validate(Array(text.utf8))
            #expect(report.isValid, "\(report.diagnostics.map(\.messageWithPointer))")
        }
        // Apple's archived guide uses an 8-character placeholder prefix: no real app has one (a
        // team ID has 10), so it is an error now, and the only one.
        let legacy = AssociationFileValidator.validate(Array(Self.appleLegacy.utf8)).diagnostics
        #expect(legacy.filter { $0.severity == .error }.map(\.code) == [.unusualAppIDPrefix])
        let fixed = AssociationFileValidator.validate(
            Array(Self.appleLegacy.replacingOccurrences(of: "ABCD1234.", with: "ABCDE12345.").utf8))
        #expect(fixed.isValid)
    }

    @Test("pitfall: a comment copied from a tutorial")
    func comments() {
        // Reported, and the rest still checked: the applinks object below it has no details.
        #expect(Self.codes("{\n  // universal links\n  \"applinks\": {}\n}") == [.jsonComment, .noDetails])
    }

    @Test("pitfall: a byte-order mark written by an editor")
    func byteOrderMark() {
        let report = AssociationFileValidator.validate([0xEF, 0xBB, 0xBF] + Array(Self.appleOverview.utf8))
        #expect(report.diagnostics.map(\.code) == [.jsonByteOrderMark])
        #expect(!report.isValid)
    }

    @Test("pitfall: a file over 128 KB from thousands of paths")
    func oversized() {
        let paths = (0..<6000).map { "\"/product/\($0)/detail/*\"" }.joined(separator: ", ")
        let text =
            #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app", "paths": [\#(paths)]}]}}"#
        #expect(text.utf8.count > 131_072)
        #expect(Self.codes(text).contains(.fileTooLarge))
    }

    @Test("pitfall: an exclusion on a query item with * (element-call #1693)")
    func wildcardExclusion() {
        let text =
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"?": {"no_universal_links": "*"}, "exclude": true}, {"/": "/room/*"}]}]}}"#
        #expect(Self.codes(text).contains(.exclusionMatchesAbsentItem))
    }

    @Test("pitfall: iOS 12 clients and a modern-only file, and the compatible fix")
    func iOS12() {
        let modern =
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a/*"}]}]}}"#
        #expect(Self.codes(modern).contains(.modernOnly))
        let both =
            #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/a/*"], "appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a/*"}]}]}}"#
        let codes = Self.codes(both)
        #expect(!codes.contains(.modernOnly))
        #expect(codes.contains(.pathsIgnored))
        #expect(!AssociationFileValidator.validate(Array(both.utf8)).diagnostics.hasErrors)
    }

    @Test("pitfall: a hyphenated bundle ID is valid (SchemaStore's regex wrongly rejects it)")
    func hyphenatedBundle() {
        let text = #"{"webcredentials": {"apps": ["ABCDE12345.com.my-company.app"]}}"#
        #expect(Self.codes(text).isEmpty)
    }

    @Test("the model keeps legacy, modern and dictionary shapes")
    func model() throws {
        let report = AssociationFileValidator.validate(Array(Self.appleOverview.utf8))
        let appLinks = try #require(report.file?.appLinks)
        #expect(
            appLinks.details.first?.appIDs.map(\.value) == [
                "ABCDE12345.com.example.app", "ABCDE12345.com.example.app2",
            ])
        #expect(appLinks.details.first?.components?.count == 4)
        #expect(report.file?.appClips?.apps.first?.value == "ABCDE12345.com.example.MyApp.Clip")
        let legacy = try #require(AssociationFileValidator.validate(Array(Self.appleLegacy.utf8)).file?.appLinks)
        #expect(legacy.details[0].paths?.map(\.text) == ["/wwdc/news/", "/videos/wwdc/2015/*"])
    }
}
