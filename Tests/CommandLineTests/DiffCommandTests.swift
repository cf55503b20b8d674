import Foundation
import TestSupport
import Testing

/// `aasa-server diff`: changes in meaning, never in formatting, and the URL decisions they change.
@Suite("aasa-server diff")
struct DiffCommandTests {
    static let old = """
        {"applinks": {"substitutionVariables": {"food": ["pizza"]}, "details": [{"appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.gone"],
         "components": [{"/": "/buy/*"}, {"/": "/sell/*"}]}]}, "webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}
        """
    static let new = """
        {"webcredentials": {"apps": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.new"]},
         "applinks": {"substitutionVariables": {"food": ["pizza", "sushi"]}, "details": [{"appIDs": ["ABCDE12345.com.example.app"],
          "components": [{"exclude": true, "/": "/buy/free/*"}, {"/": "/buy/*"}, {"/": "/sell/*"}]}]}}
        """

    @Test("apps, rules, variables and URL decisions that changed; exit 1")
    func changes() throws {
        let folder = try TemporaryFolder()
        try folder.write("old.json", Self.old)
        try folder.write("new.json", Self.new)
        let output = try BinaryRunner.run(
            [
                "diff", "old.json", "new.json", "--url", "https://example.com/buy/free/1", "--url",
                "https://example.com/buy/2",
            ], in: folder.url)
        #expect(output.status == 1, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("  - app ABCDE12345.com.example.gone"))
        #expect(lines.contains(#"  ~ variable food ["pizza"] → ["pizza", "sushi"]"#))
        #expect(
            lines.contains(#"  + rule details[0].components[0] {"exclude": true, "/": "/buy/free/*"}"#),
            "\(output.stdout)")
        #expect(lines.contains("  + app ABCDE12345.com.example.new"))
        #expect(
            lines.contains(
                #"https://example.com/buy/free/1 ABCDE12345.com.example.app: match → exclude (details[0].components[0] {"exclude": true, "/": "/buy/free/*"})"#
            ))
        // /buy/2 still opens the app; only the removed app's decision changes.
        #expect(!lines.contains { $0.hasPrefix("https://example.com/buy/2 ABCDE12345.com.example.app:") })
        #expect(
            lines.contains { $0.hasPrefix("https://example.com/buy/2 ABCDE12345.com.example.gone: match → no_match") })
        let json = try BinaryRunner.run(["diff", "--json", "old.json", "new.json"], in: folder.url)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["changed"] as? Bool == true)
        #expect(
            (document["changes"] as? [[String: Any]])?.contains {
                $0["kind"] as? String == "added" && $0["subject"] as? String == "rule"
            } == true)
    }

    @Test("formatting, key order, whitespace and escapes are no change; exit 0")
    func sameMeaning() throws {
        let folder = try TemporaryFolder()
        try folder.write("old.json", Self.old)
        try folder.write(
            "reformatted.json",
            """
            {
              "webcredentials": { "apps": [ "ABCDE12345.com.example.app" ] },
              "applinks": {
                "details": [ { "components": [ { "/": "\\/buy\\/*" }, { "/": "/sell/*" } ],
                               "appIDs": [ "ABCDE12345.com.example.app", "ABCDE12345.com.example.gone" ] } ],
                "substitutionVariables": { "food": [ "pizza" ] }
              }
            }
            """)
        let output = try BinaryRunner.run(
            ["diff", "old.json", "reformatted.json", "--url", "https://example.com/buy/1"], in: folder.url)
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.stdout == "same meaning\n")
    }

    @Test("usage errors and unreadable input exit 2")
    func usage() throws {
        let folder = try TemporaryFolder()
        try folder.write("old.json", Self.old)
        try folder.write("broken.json", "{")
        #expect(try BinaryRunner.run(["diff", "old.json"], in: folder.url).status == 2)
        #expect(try BinaryRunner.run(["diff", "old.json", "missing.json"], in: folder.url).status == 2)
        #expect(try BinaryRunner.run(["diff", "old.json", "broken.json"], in: folder.url).status == 2)
        #expect(
            try BinaryRunner.run(["diff", "old.json", "old.json", "--url", "not a url"], in: folder.url).status == 2)
    }

    @Test("--against-live fetches NEW over HTTPS from the live host (our server here)")
    func againstLive() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("example.test", names: ["example.test"])
        try folder.write("sites/example.test/apple-app-site-association", Self.new)
        try folder.write("old.json", Self.old)
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off"])
        defer { _ = server.stop() }
        let range = try #require(server.errors.range(of: "info listening on https://127.0.0.1:"))
        let port = try #require(Int(server.errors[range.upperBound...].prefix { $0.isNumber }))
        let output = try BinaryRunner.run(
            [
                "diff", "old.json", "--against-live", "example.test", "--cacert", certificates.caFile, "--connect-to",
                "127.0.0.1:\(port)",
                "--url", "https://example.test/buy/free/1",
            ], in: folder.url)
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stdout.contains("https://example.test/buy/free/1 ABCDE12345.com.example.app: match → exclude"))
        try folder.write("same.json", Self.new)
        let same = try BinaryRunner.run(
            [
                "diff", "same.json", "--against-live", "example.test", "--cacert", certificates.caFile, "--connect-to",
                "127.0.0.1:\(port)",
            ],
            in: folder.url)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        // Without --cacert the test CA is not trusted: nothing is fetched, exit 2.
        let untrusted = try BinaryRunner.run(
            ["diff", "same.json", "--against-live", "example.test", "--connect-to", "127.0.0.1:\(port)"],
            in: folder.url)
        #expect(untrusted.status == 2, "\(untrusted.stdout)\(untrusted.stderr)")
        #expect(untrusted.stderr.contains("the certificate of example.test does not verify"), "\(untrusted.stderr)")
    }
}
