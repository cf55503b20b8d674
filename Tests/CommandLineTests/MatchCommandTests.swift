import Foundation
import TestSupport
import Testing

@Suite("aasa-server match")
struct MatchCommandTests {
    @Test("match over a sites directory, through an alias, with the deciding rule")
    func sitesAndAlias() throws {
        let output = try BinaryRunner.run([
            "match", "--sites", "Config/sites", "--domain", "www.example.com", "https://www.example.com/en_US/pizza/",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("match     ABCDE12345.com.example.restaurant "))
        #expect(output.stdout.contains("details[0].components[2]"))
        #expect(output.stdout.contains(#"rule: { "/": "/$(lang)_$(region)/$(food)/""#))
    }

    @Test("--json prints url, domain and results with decision, indexes and reason")
    func json() throws {
        let output = try BinaryRunner.run([
            "match", "--json", "--file", "Config/sites/example.com/apple-app-site-association", "--domain",
            "example.com",
            "--app", "ABCDE12345.com.example.restaurant", "https://example.com/account/settings",
        ])
        #expect(output.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(document["url"] as? String == "https://example.com/account/settings")
        #expect(document["domain"] as? String == "example.com")
        let result = try #require((document["results"] as? [[String: Any]])?.first)
        #expect(result["appID"] as? String == "ABCDE12345.com.example.restaurant")
        #expect(result["decision"] as? String == "exclude")
        #expect(result["detailsIndex"] as? Int == 0)
        #expect(result["componentIndex"] as? Int == 1)
        #expect((result["reason"] as? String)?.isEmpty == false)
    }

    @Test("another host is no_match for every app; an unknown app is no_match")
    func hostAndApp() throws {
        let file = "Config/sites/example.com/apple-app-site-association"
        let other = try BinaryRunner.run([
            "match", "--file", file, "--domain", "example.com", "https://evil.test/en_US/pizza/",
        ])
        #expect(other.status == 1)
        #expect(other.stdout.contains("no_match"))
        #expect(!other.stdout.contains("  match "))
        let upper = try BinaryRunner.run([
            "match", "--file", file, "--domain", "example.com", "https://EXAMPLE.COM/en_US/pizza/",
        ])
        #expect(upper.status == 0)
        let unknown = try BinaryRunner.run([
            "match", "--json", "--file", file, "--app", "ZZZZZ99999.com.other", "https://example.com/en_US/pizza/",
        ])
        #expect(unknown.status == 1)
        #expect(unknown.stdout.contains(#""decision":"no_match""#))
    }

    @Test("a file with warnings still decides; warnings go to stderr")
    func warningsDoNotStopMatching() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "aasa",
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a/*"}, {"/": "/a/private/*", "exclude": true}]}]}}"#
        )
        let output = try BinaryRunner.run(["match", "--file", path, "https://example.com/a/private/x"])
        #expect(output.status == 0)
        #expect(output.stderr.contains("[AASA303]"))
        #expect(output.stdout.contains("match "))
    }

    @Test("not JSON, unreadable or a bad URL exits 2")
    func refusals() throws {
        let folder = try TemporaryFolder()
        let broken = try folder.write("broken", "{ // comment\n}")
        #expect(try BinaryRunner.run(["match", "--file", broken, "https://example.com/"]).status == 2)
        #expect(try BinaryRunner.run(["match", "--file", "/nonexistent", "https://example.com/"]).status == 2)
        #expect(
            try BinaryRunner.run([
                "match", "--file", "Config/sites/example.com/apple-app-site-association", "not a url",
            ]).status == 2)
        #expect(try BinaryRunner.run(["match", "https://example.com/"]).status == 2)
        #expect(
            try BinaryRunner.run([
                "match", "--sites", "Config/sites", "--domain", "unknown.test", "https://unknown.test/",
            ]).status == 2)
    }

    @Test("an assetlinks.json without an app statement is described in Android's terms")
    func androidWithoutApps() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "assetlinks.json",
            #"[{"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "web", "site": "https://example.com"}}]"#
        )
        let output = try BinaryRunner.run(
            ["match", "--file", "assetlinks.json", "https://example.com/a"], in: folder.url)
        #expect(output.stdout.contains("(no statement grants handle_all_urls to an android_app)"), "\(output.stdout)")
        #expect(!output.stdout.contains("applinks.details"))
    }

    @Test("wildcard sites answer subdomains, never the apex")
    func wildcard() throws {
        let sub = try BinaryRunner.run([
            "match", "--sites", "Config/sites", "--domain", "a.b.staging.example.com",
            "https://a.b.staging.example.com/x",
        ])
        #expect(sub.status == 0)
        let apex = try BinaryRunner.run([
            "match", "--sites", "Config/sites", "--domain", "staging.example.com", "https://staging.example.com/x",
        ])
        #expect(apex.status == 2)
    }
}
