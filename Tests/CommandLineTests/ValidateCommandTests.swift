import Foundation
import TestSupport
import Testing

@Suite("aasa-server validate")
struct ValidateCommandTests {
    static let valid =
        SiteFixtures.oneAppAASA(path: "/buy/*")

    @Test("the example sites validate, exit 0")
    func exampleSites() throws {
        let output = try BinaryRunner.run(["validate", "Config/sites"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("files checked: valid; 0 errors"))
    }

    @Test("a trailing comma on line 4: PATH:4:COL: error: … [JSON003], exit 1")
    func trailingComma() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "apple-app-site-association",
            """
            {
              "applinks": {
                "details": [
                  {"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a"}]},
                ]
              }
            }
            """)
        let output = try BinaryRunner.run(["validate", path])
        #expect(output.status == 1)
        let line = try #require(output.stdout.split(separator: "\n").first)
        #expect(line.hasPrefix("\(path):4:78: error: trailing comma"))
        #expect(line.hasSuffix("[JSON003]"))
        #expect(line.contains("/applinks/details"))
    }

    @Test("the file name decides the kind; misnamed files and links that are not served are warnings")
    func namesAndLinks() throws {
        let folder = try TemporaryFolder()
        // An apple-app-site-association holding an Android statement list is a wrong Apple file.
        try folder.write("sites/list.test/apple-app-site-association", "[]")
        try folder.write("sites/good.test/apple-app-site-association", Self.valid)
        try folder.write("sites/good.test/apple-app-site-association.json", Self.valid)
        try folder.write("sites/android.test/assetlinks", "[]")
        try folder.write("elsewhere/apple-app-site-association", Self.valid)
        let sites = folder.url.appendingPathComponent("sites")
        try FileManager.default.createSymbolicLink(
            atPath: sites.appendingPathComponent("out.test").path, withDestinationPath: "../elsewhere")
        try FileManager.default.createSymbolicLink(
            atPath: sites.appendingPathComponent("gone.test").path, withDestinationPath: "missing.test")
        let output = try BinaryRunner.run(["validate", "sites"], in: folder.url)
        #expect(output.status == 1)
        #expect(output.stdout.contains("sites/list.test/apple-app-site-association:1:1: error: "))
        #expect(output.stdout.contains("[AASA002]"))
        #expect(
            output.stdout.contains(
                "sites/good.test/apple-app-site-association.json: warning: never served: the file must be named "
                    + "apple-app-site-association"
            ))
        #expect(
            output.stdout.contains(
                "sites/android.test/assetlinks: warning: never served: the file must be named assetlinks.json"))
        #expect(output.stdout.contains("sites/out.test: warning: the link out.test leads outside the sites folder"))
        #expect(output.stdout.contains("sites/gone.test: warning: the link gone.test -> missing.test is dangling"))
        // As serve reports it: a site folder with only a misnamed file answers 404 (SITE004).
        #expect(output.stdout.contains("sites/android.test: warning: the site folder has no"))
        #expect(output.stdout.contains("2 files checked: 1 invalid; 1 error, 5 warnings"), "\(output.stdout)")
        let match = try BinaryRunner.run(
            ["match", "--sites", "sites", "--domain", "out.test", "https://out.test/a"], in: folder.url)
        #expect(match.status == 2)
        #expect(match.stderr.contains("the link out.test leads outside the sites folder"), "\(match.stderr)")
        let serve = try BinaryRunner.run(
            ["serve", "--sites", "sites", "--http", "127.0.0.1:0", "--admin", "off"], in: folder.url)
        #expect(serve.status == 1)
        #expect(serve.stderr.contains("sites/good.test/apple-app-site-association.json: warning: never served"))
        #expect(serve.stderr.contains("sites/out.test: warning: the link out.test leads outside the sites folder"))
    }

    @Test("an invalid file and an unreadable one are both counted")
    func invalidAndUnreadable() throws {
        let folder = try TemporaryFolder()
        try folder.write("bad.json", #"{"applinks": {"details": [1,]}}"#)
        let output = try BinaryRunner.run(["validate", "bad.json", "missing.json"], in: folder.url)
        #expect(output.status == 2)
        #expect(output.stdout.contains("missing.json: error: no such file or directory"))
        // The reader goes past the trailing comma, so what lies inside is reported too.
        #expect(
            output.stdout.hasSuffix("2 files checked: 1 invalid, 1 unreadable; 3 errors, 1 warning\n"),
            "\(output.stdout)")
    }

    @Test("site folders and sites directories are walked; aliases are not checked twice")
    func directories() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/good.test/apple-app-site-association", Self.valid)
        try folder.write(
            "sites/bad.test/apple-app-site-association",
            #"{"applinks": {"details": [{"appIDs": ["nodot"], "components": []}]}}"#)
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("sites/www.good.test").path, withDestinationPath: "good.test")
        let sites = folder.url.appendingPathComponent("sites").path
        let output = try BinaryRunner.run(["validate", sites])
        #expect(output.status == 1)
        #expect(output.stdout.contains("bad.test/apple-app-site-association:1:"))
        #expect(output.stdout.contains("[AASA201]"))
        #expect(output.stdout.contains("2 files checked"))
        let site = try BinaryRunner.run(["validate", folder.url.appendingPathComponent("sites/good.test").path])
        #expect(site.status == 0)
    }

    @Test("--json prints one document with positions, pointers and codes")
    func json() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "f.json",
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a", "casesensitive": false}]}]}}"#
        )
        let output = try BinaryRunner.run(["validate", "--json", path])
        #expect(output.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(document["valid"] as? Bool == true)
        let files = try #require(document["files"] as? [[String: Any]])
        let diagnostics = try #require(files.first?["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.contains { $0["code"] as? String == "AASA106" && $0["severity"] as? String == "info" })
        let diagnostic = try #require(diagnostics.first { $0["code"] as? String == "AASA004" })
        #expect(diagnostic["code"] as? String == "AASA004")
        #expect(diagnostic["severity"] as? String == "warning")
        #expect(diagnostic["pointer"] as? String == "/applinks/details/0/components/0/casesensitive")
        #expect(diagnostic["line"] as? Int == 1)
    }

    @Test("unreadable input exits 2 with a clear message, never a crash")
    func unreadable() throws {
        let missing = try BinaryRunner.run(["validate", "/nonexistent/apple-app-site-association"])
        #expect(missing.status == 2)
        #expect(missing.stdout.contains("no such file or directory"))
        let folder = try TemporaryFolder()
        let emptyDirectory = try BinaryRunner.run(["validate", folder.url.path])
        #expect(emptyDirectory.status == 2)
        #expect(emptyDirectory.stdout.contains("no apple-app-site-association"))
        let usage = try BinaryRunner.run(["validate"])
        #expect(usage.status == 2)
        let badFlag = try BinaryRunner.run(["validate", "--bogus", "x"])
        #expect(badFlag.status == 2)
    }

    @Test("binary garbage and oversized files are invalid, not crashes")
    func garbage() throws {
        let folder = try TemporaryFolder()
        var random = SystemRandomNumberGenerator()
        let noise = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) })
        let garbage = try folder.write("garbage", noise)
        let output = try BinaryRunner.run(["validate", garbage])
        #expect(output.status == 1)
        #expect(output.stdout.contains("error:"))
        let big = try folder.write(
            "big",
            #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}, "x": ""#
                + String(repeating: "a", count: 140_000) + "\"}")
        let oversized = try BinaryRunner.run(["validate", big])
        #expect(oversized.status == 1)
        #expect(oversized.stdout.contains("[AASA001]"))
    }

    @Test("--help works for the command and every subcommand, exit 0")
    func help() throws {
        for arguments in [
            ["--help"], ["serve", "--help"], ["validate", "--help"], ["match", "--help"], ["probe", "--help"],
        ] {
            let output = try BinaryRunner.run(arguments)
            #expect(output.status == 0, "\(arguments)")
            #expect(output.stdout.contains("USAGE:"), "\(arguments)")
        }
    }

    @Test("--list-codes lists every code, and docs/codes.md documents each one")
    func codesAreDocumented() throws {
        let output = try BinaryRunner.run(["validate", "--list-codes"])
        #expect(output.status == 0)
        let codes = output.stdout.split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) }
        #expect(codes.count >= 50)
        let table = try String(
            contentsOf: BinaryRunner.packageRoot.appendingPathComponent("docs/codes.md"), encoding: .utf8)
        for code in codes {
            #expect(table.contains("`\(code)`"), "docs/codes.md does not list \(code)")
        }
    }
}
