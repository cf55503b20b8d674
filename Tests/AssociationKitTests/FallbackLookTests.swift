import AssociationKit
import Testing

/// `icon`, `accentColor` and `strings` of fallback.json (docs/fallback.md, "Link pages a shop would
/// ship"): what the validator accepts and refuses, and which language an Accept-Language picks.
@Suite("fallback.json: icon, colour and strings by Accept-Language")
struct FallbackLookTests {
    static let shop = """
        {"web": "https://www.example.com{path}",
         "icon": "https://www.example.com/icon.png", "accentColor": "#C2410c",
         "strings": {"de": {"title": "Beispiel", "description": "Bestellen", "store": "Laden", "web": "Web"},
                     "pt-BR": {"web": "Continuar na web"}}}
        """

    @Test("the new keys decode: icon, the colour's components, strings in file order")
    func decoded() throws {
        let report = FallbackValidator.validate(Array(Self.shop.utf8))
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let file = try #require(report.file)
        #expect(file.icon == "https://www.example.com/icon.png")
        #expect(file.accentColor == AccentColor(red: 0xC2, green: 0x41, blue: 0x0C))
        #expect(file.accentColor?.hex == "#c2410c")
        #expect(
            file.strings == [
                FallbackTexts(language: "de", title: "Beispiel", description: "Bestellen", store: "Laden", web: "Web"),
                FallbackTexts(language: "pt-BR", web: "Continuar na web"),
            ])
    }

    /// Each refused value with the line, column and pointer of what is wrong: the value, or the
    /// key for a key that is wrong.
    static let placed: [(text: String, code: DiagnosticCode, line: Int, column: Int, pointer: String)] = [
        (
            "{\"web\": \"https://x.example\",\n \"icon\": \"http://x.example/i.png\"}", .fallbackInsecureIcon, 2, 10,
            "/icon"
        ),
        ("{\"web\": \"https://x.example\",\n \"icon\": \"//x.example/i.png\"}", .fallbackInsecureIcon, 2, 10, "/icon"),
        ("{\"web\": \"https://x.example\",\n \"accentColor\": \"red\"}", .fallbackInvalidColor, 2, 17, "/accentColor"),
        ("{\"web\": \"https://x.example\",\n \"accentColor\": 255}", .fallbackInvalidColor, 2, 17, "/accentColor"),
        (
            "{\"web\": \"https://x.example\", \"strings\": {\n  \"de\": {\"button\": \"x\"}}}", .fallbackUnknownText,
            2, 10, "/strings/de/button"
        ),
        (
            "{\"web\": \"https://x.example\", \"strings\": {\n  \"de_DE\": {\"title\": \"x\"}}}",
            .fallbackInvalidLanguage, 2, 3, "/strings/de_DE"
        ),
    ]

    @Test("each refused value: its code, file position and pointer", arguments: placed)
    func place(text: String, code: DiagnosticCode, line: Int, column: Int, pointer: String) throws {
        let report = FallbackValidator.validate(Array(text.utf8))
        let found = try #require(report.diagnostics.first { $0.code == code }, "\(report.diagnostics)")
        #expect(found.location.line == line && found.location.column == column, "\(found)")
        #expect(found.pointer == pointer, "\(found)")
        #expect(found.severity == .error)
        #expect(report.file == nil)
    }

    static let colours: [(String, Bool)] = [
        ("#0a66d8", true), ("#FFFFFF", true), ("#000000", true), ("#abc", false), ("0a66d8", false),
        ("#0a66d8ff", false), ("#0a66dg", false), ("red", false), ("#0a 6d8", false), ("", false),
        ("#0a66d8;}", false),
    ]

    @Test("accentColor is #RRGGBB and nothing else", arguments: colours)
    func colour(text: String, valid: Bool) {
        #expect((AccentColor(text) != nil) == valid)
        let file = #"{"web": "https://x.example", "accentColor": ""# + text + #""}"#
        #expect((FallbackValidator.validate(Array(file.utf8)).file != nil) == valid)
    }

    @Test("text on the colour: dark on light colours, white on dark ones")
    func contrast() {
        #expect(AccentColor("#ffd60a")?.prefersDarkText == true)
        #expect(AccentColor("#ffffff")?.prefersDarkText == true)
        #expect(AccentColor("#0a66d8")?.prefersDarkText == false)
        #expect(AccentColor("#c2410c")?.prefersDarkText == false)
        #expect(AccentColor("#000000")?.prefersDarkText == false)
    }

    static let tags: [(String, Bool)] = [
        ("de", true), ("pt-BR", true), ("zh-Hant-TW", true), ("es-419", true), ("sr-Latn-RS", true),
        ("de-CH-1901", true), ("sl-rozaj-biske", true), ("en-a-bbb-x-a-ccc", true), ("x-whatever", true),
        ("zh-yue-HK", true), ("hy-Latn-IT-arevela", true), ("DE", true), ("tlh", true),
        ("german", true), ("", false), ("english!", false), ("de_DE", false), ("de-", false), ("-de", false),
        ("d", false),
        ("de--CH", false), ("abcd", false), ("de-a", false), ("de-a-bb-a-cc", false), ("de-x", false),
        ("de-CH-x", false), ("ab-abcdefghi", false), ("de-DE ", false), ("dé", false), ("i-klingon", false),
        ("en-" + String(repeating: "abcdefgh-", count: 8) + "x", false),
    ]

    @Test("language tags: BCP 47 well-formed (RFC 5646 §2.1), bounded", arguments: tags)
    func tag(text: String, valid: Bool) {
        #expect(LanguageTag.isWellFormed(text) == valid)
    }

    /// The variants `de`, `pt`, `fr-CA`, `en-GB`; the default stands for `en`.
    static let fields: [(String, String?)] = [
        ("de", "de"), ("de-DE,de;q=0.9,en;q=0.8", "de"), ("pt-BR,pt;q=0.9", "pt"), ("PT-br", "pt"),
        ("en-US,en;q=0.9,de;q=0.8", nil), ("en-GB", "en-GB"), ("fr", "fr-CA"), ("fr-FR", nil),
        ("it, de;q=0.5", "de"), ("de;q=0.5, pt;q=0.8", "pt"), ("de;q=0.5, pt", "pt"),
        ("*", nil), ("*, de;q=0.1", nil), ("de;q=0", nil), ("de;q=0.000, pt;q=0.001", "pt"),
        ("de ; q=0.7 , pt ; q=0.6", "de"), ("de;q=1.000", "de"), ("de;q=1.001,pt", "pt"),
        ("de;q=2", nil), ("de;level=1", nil), ("de;Q=0.5", "de"), ("dex", nil), ("d", nil), ("", nil),
        (",,,de", "de"), ("ja, fr-CA;q=0.4, de;q=0.4", "fr-CA"),
        (String(repeating: "xx,", count: 200) + "de", nil), (String(repeating: "xx,", count: 30) + "de", nil),
        (String(repeating: " ", count: 600) + "de", nil),
    ]

    @Test("Accept-Language picks a variant (RFC 9110 §12.5.4, q-values, pt-BR → pt)", arguments: fields)
    func choice(field: String, expected: String?) {
        let languages = ["de", "pt", "fr-CA", "en-GB"]
        let choice = LanguageChoice(languages: languages)
        #expect(choice.choose(field).map { languages[$0] } == expected)
    }
}
