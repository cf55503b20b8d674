import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// A site folder's `site.json` names aliases without symbolic links (docs/sites.md, "Sites
/// layout"): served over HTTP and HTTPS as the folder's own host, listed, watched; a name
/// a folder holds stays the folder's (`SITE014`).
@Suite("site.json aliases")
struct SiteAliasFileTests {
    static func admin(_ server: RunningServer, _ path: String) throws -> String {
        let port = try #require(server.adminPort)
        return String(decoding: try Curl.request("http://127.0.0.1:\(port)\(path)").body, as: UTF8.self)
    }

    @Test("a site.json alias is served over HTTP and HTTPS (its own certificate), listed, and follows edits")
    func served() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", SiteFixtures.oneAppAASA("one"))
        let settings = try folder.write("sites/example.com/site.json", #"{"aliases": ["go.example.com"]}"#)
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("go", names: ["go.example.com"])
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0"])
        defer { _ = server.stop() }
        #expect(try ServedApp.served(server, host: "go.example.com") == "one")
        #expect(try ServedApp.served(server, host: "go.example.com", path: "site.json") == "404")
        #expect(try ServedApp.served(server, host: "example.com", path: "site.json") == "404")

        let range = try #require(server.errors.range(of: "listening on https://127.0.0.1:"))
        let securePort = try #require(Int(server.errors[range.upperBound...].prefix { $0.isNumber }))
        let secure = try Curl.request(
            "https://go.example.com:\(securePort)/.well-known/apple-app-site-association",
            ["--cacert", certificates.caFile, "--resolve", "go.example.com:\(securePort):127.0.0.1"])
        #expect(secure.status == 200)
        #expect(String(decoding: secure.body, as: UTF8.self).contains("com.example.one\""))

        let document = try Self.admin(server, "/sites.json")
        #expect(document.contains(#""aliases":["go.example.com"]"#), "\(document)")
        #expect(try Self.admin(server, "/metrics").contains("\naasa_site_aliases 1"))

        // An edit is a reload: the new name serves, the one removed answers 404.
        try Data(#"{"aliases": ["new.example.com"]}"#.utf8).write(to: URL(fileURLWithPath: settings))
        #expect(try eventually(5) { try ServedApp.served(server, host: "new.example.com") == "one" })
        #expect(try eventually(5) { try ServedApp.served(server, host: "go.example.com") == "404" })
    }

    @Test("a site.json alias naming a site folder is refused (SITE014) by validate, at start-up and on reload")
    func collision() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", SiteFixtures.oneAppAASA("one"))
        try folder.write("sites/example.com/site.json", #"{"aliases": ["other.example", "go.example.com"]}"#)
        try folder.write("sites/other.example/apple-app-site-association", SiteFixtures.oneAppAASA("two"))
        let validate = try BinaryRunner.run(["validate", "sites"], in: folder.url)
        #expect(validate.status == 0, "\(validate.stdout)")
        #expect(
            validate.stdout.contains(
                "sites/example.com/site.json:1:14: warning: the alias other.example is not served from here: "
                    + "the site folder other.example serves that name"), "\(validate.stdout)")
        #expect(validate.stdout.contains("[SITE014]"), "\(validate.stdout)")

        let match = try BinaryRunner.run(
            ["match", "--sites", "sites", "https://go.example.com/x", "--app", "ABCDE12345.com.example.one"],
            in: folder.url)
        #expect(match.stdout.contains("ABCDE12345.com.example.one"), "\(match.stdout)\(match.stderr)")

        let server = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        #expect(try ServedApp.served(server, host: "other.example") == "two")
        #expect(try ServedApp.served(server, host: "go.example.com") == "one")
        #expect(try Self.admin(server, "/sites.json").contains("SITE014"))
        #expect(try Self.admin(server, "/metrics").contains(#"code="SITE014""#))

        // On reload: a site.json that is not JSON is an error at its line and column; its
        // aliases stay as they were.
        try folder.write("sites/example.com/site.json", "{\n  \"aliases\": [\"go.example.com\",]\n}")
        #expect(try eventually(5) { try Self.admin(server, "/sites.json").contains("SITE012") })
        let document = try Self.admin(server, "/sites.json")
        #expect(document.contains(#""line":2"#), "\(document)")
        #expect(try ServedApp.served(server, host: "go.example.com") == "one")
        let invalid = try BinaryRunner.run(["validate", "sites"], in: folder.url)
        #expect(invalid.status == 1)
        #expect(invalid.stdout.contains("sites/example.com/site.json:2:"), "\(invalid.stdout)")
        #expect(invalid.stdout.contains("[SITE012]"), "\(invalid.stdout)")
    }

    /// docker/kubernetes.yaml's ConfigMap: `example.com -> ..data/example.com`, site.json in it.
    @Test("a ConfigMap's site.json alias is served, and a ConfigMap update changes it without a signal")
    func configMap() throws {
        let folder = try TemporaryFolder()
        let sites = folder.url.appendingPathComponent("sites")
        try folder.write(
            "sites/..2026_11_25_10_00_00.000/example.com/apple-app-site-association", SiteFixtures.oneAppAASA("one"))
        try folder.write("sites/..2026_11_25_10_00_00.000/example.com/site.json", #"{"aliases": ["www.example.com"]}"#)
        #expect(symlink("..2026_11_25_10_00_00.000", sites.appendingPathComponent("..data").path) == 0)
        #expect(symlink("..data/example.com", sites.appendingPathComponent("example.com").path) == 0)
        let server = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        #expect(try ServedApp.served(server, host: "www.example.com") == "one")

        try folder.write(
            "sites/..2026_11_25_10_05_00.000/example.com/apple-app-site-association", SiteFixtures.oneAppAASA("two"))
        try folder.write("sites/..2026_11_25_10_05_00.000/example.com/site.json", #"{"aliases": ["go.example.com"]}"#)
        #expect(symlink("..2026_11_25_10_05_00.000", sites.appendingPathComponent("..data_tmp").path) == 0)
        #expect(
            rename(sites.appendingPathComponent("..data_tmp").path, sites.appendingPathComponent("..data").path) == 0)
        #expect(try eventually(5) { try ServedApp.served(server, host: "go.example.com") == "two" })
        #expect(try ServedApp.served(server, host: "www.example.com") == "404")
    }

    @Test("check-app --sites finds an app's domain through a site.json alias")
    func checkApp() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", SiteFixtures.oneAppAASA("one"))
        try folder.write("sites/example.com/site.json", #"{"aliases": ["go.example.com"]}"#)
        try folder.write(
            "app.entitlements", CheckAppCommandTests.entitlements(["applinks:go.example.com", "applinks:no.example"]))
        let output = try BinaryRunner.run(
            [
                "check-app", "--entitlements", "app.entitlements", "--app-id", "ABCDE12345.com.example.one",
                "--sites", "sites",
            ], in: folder.url)
        #expect(
            output.stdout.contains(
                "pass  applinks:go.example.com: ABCDE12345.com.example.one is listed under applinks"),
            "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("fail  applinks:no.example: no site folder in"), "\(output.stdout)")
    }
}
