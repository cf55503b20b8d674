import AASASites
import AssociationKit
import Foundation
import TestSupport
import Testing

@testable import AASAFileCommands

/// `validate`'s four forms (text, JSON, SARIF, GitHub workflow commands) on fixture files: each
/// says every finding where it is, and the verdicts and counts agree with each other.
@Suite("validate's output")
final class ValidationOutputTests {
    static let files = [
        "good": SiteFixtures.oneAppAASA(path: "/buy/*"),
        "broken": SiteFixtures.badAppIDAASA,
        // An unknown top-level key: a warning, the file still valid.
        "warned":
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a"}]}]}, "#
            + #""unknownService": {}}"#,
    ]

    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("aasa-validate-output")
        for (name, text) in Self.files { try folder.write("\(name)/apple-app-site-association", text) }
    }

    func path(_ name: String) -> String { folder.path("\(name)/apple-app-site-association") }

    /// The output `validate` builds for the fixture files `names`, as its `run` does.
    func output(_ names: [String], strict: Bool = false) -> ValidationOutput {
        let results = names.map {
            FileCheck(
                path: path($0), kind: .apple, confined: false,
                signing: SignedFileContext(reader: .unavailable, domain: nil, now: 0))
        }
        let unreadable = results.compactMap { result in result.readError.map { (path: result.path, reason: $0) } }
        return ValidationOutput(results: results, unreadable: unreadable, warnings: [], verbose: false, strict: strict)
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("a valid file: the summary line alone")
    func valid() {
        #expect(output(["good"]).text() == "1 file checked: valid; 0 errors, 0 warnings\n")
    }

    @Test("text: each error as PATH:LINE:COLUMN: error: MESSAGE [CODE], then the counts")
    func text() throws {
        let output = output(["good", "broken"])
        let broken = try #require(output.results.last)
        let errors = broken.diagnostics.filter { $0.severity == .error }
        try #require(!errors.isEmpty)
        let text = output.text()
        for error in errors {
            #expect(
                text.contains("\(path("broken")):\(error.location.line):\(error.location.column): error: "), "\(text)")
            #expect(text.contains("[\(error.code.rawValue)]"), "\(text)")
        }
        #expect(!text.contains(path("good")))
        #expect(text.hasSuffix("2 files checked: 1 invalid; \(output.plural(errors.count, "error")), 0 warnings\n"))
        #expect(output.errorCount == errors.count)
    }

    @Test("an unreadable path: one error line, counted as unreadable, not as invalid")
    func unreadable() {
        let text = output(["missing"]).text()
        #expect(text.hasPrefix("\(path("missing")): error: "), "\(text)")
        #expect(text.hasSuffix("1 file checked: 1 unreadable; 1 error, 0 warnings\n"), "\(text)")
    }

    @Test("JSON: the verdict, the counts and each file's diagnostics with code, line and column")
    func json() throws {
        let output = output(["good", "broken", "missing"])
        let document = try Self.object(output.jsonText())
        #expect(document["valid"] as? Bool == false)
        #expect(document["passed"] as? Bool == false)
        #expect(document["errors"] as? Int == output.errorCount)
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == ["good", "broken", "missing"].map(path))
        #expect(files.map { $0["valid"] as? Bool } == [true, false, false])
        #expect(files[2]["readError"] is String)
        let first = try #require((files[1]["diagnostics"] as? [[String: Any]])?.first)
        let diagnostic = try #require(output.results[1].diagnostics.first)
        #expect(first["code"] as? String == diagnostic.code.rawValue)
        #expect(first["line"] as? Int == diagnostic.location.line)
        #expect(first["column"] as? Int == diagnostic.location.column)
    }

    @Test("--strict: a warning fails the run, and CI forms show it as an error")
    func strict() throws {
        let lenient = output(["warned"])
        #expect(lenient.warningCount > 0)
        #expect(!lenient.failsStrict)
        #expect(lenient.githubText().hasPrefix("::warning file="))
        let strict = output(["warned"], strict: true)
        #expect(strict.failsStrict)
        #expect(strict.text().hasSuffix("1 file checked: 1 failing --strict (warnings); 0 errors, 1 warning\n"))
        #expect(strict.githubText().hasPrefix("::error file="))
        let document = try Self.object(strict.jsonText())
        #expect(document["valid"] as? Bool == true)
        #expect(document["passed"] as? Bool == false)
        #expect(document["strict"] as? Bool == true)
    }

    @Test("SARIF: one result per finding with its rule and region; unreadable paths are notifications")
    func sarif() throws {
        let output = output(["broken", "warned", "missing"])
        let log = try Self.object(output.sarifText())
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        let shown = output.results.filter { $0.readError == nil }.flatMap(\.diagnostics).filter { $0.severity != .info }
        #expect(results.count == shown.count)
        for (result, diagnostic) in zip(results, shown) {
            #expect(result["ruleId"] as? String == diagnostic.code.rawValue)
            #expect(result["level"] as? String == (diagnostic.severity == .error ? "error" : "warning"))
            let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"])
            let region = try #require((location as? [String: Any])?["region"] as? [String: Any])
            #expect(region["startLine"] as? Int == diagnostic.location.line)
            #expect(region["startColumn"] as? Int == diagnostic.location.column)
        }
        let rules = try #require(
            ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(Set(rules.compactMap { $0["id"] as? String }) == Set(shown.map(\.code.rawValue)))
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        let notes = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
        #expect(notes.count == 1)
        let note = try #require((notes.first?["message"] as? [String: Any])?["text"] as? String)
        #expect(note.hasPrefix("\(path("missing")): "), "\(note)")
    }

    @Test(
        "GitHub workflow commands escape what would end a message or a property",
        arguments: [
            ("plain", "plain", "plain"), ("100%", "100%25", "100%25"), ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
            ("sites/a:b,c", "sites/a:b,c", "sites/a%3Ab%2Cc"),
        ])
    func githubEscaping(_ text: String, data: String, property: String) {
        #expect(ValidationOutput.data(text) == data)
        #expect(ValidationOutput.property(text) == property)
    }

    @Test(
        "SARIF locations are URI references: relative stays relative, ? # and spaces are escaped",
        arguments: [
            ("sites/example.com/apple-app-site-association", "sites/example.com/apple-app-site-association"),
            ("a b/x#y?z", "a%20b/x%23y%3Fz"), ("/abs/é", "/abs/%C3%A9"),
        ])
    func sarifURI(_ path: String, _ uri: String) {
        #expect(SARIF.uri(path) == uri)
    }
}
