import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// What a newcomer meets in the first hour (issue 30): `serve --help` with every default,
/// `match` choosing the site by the URL, `validate --strict`, misplaced files named, an
/// unreadable key explained, one count of sites, and `diff` naming only deciding rules.
@Suite("A newcomer's first hour")
struct FirstHourTests {
    static let valid =
        SiteFixtures.oneAppAASA(path: "/buy/*")
    /// Valid, with one warning (AASA303: an exclusion after a broader rule).
    static let warned =
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": "#
        + #"[{"/": "/buy/*"}, {"/": "/buy/free", "exclude": true}]}]}}"#

    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test(
        "serve --help shows the default of every setting that has one",
        arguments: [
            "--sites": "default Config/sites", "--certs": "default certs", "--http": "default 127.0.0.1:8080",
            "--https": "default off", "--admin": "default 127.0.0.1:9090", "--workers": "default 0",
            "--log-format": "default text", "--access-log": "default on", "--metrics-per-site": "default off",
            "--cache-control": "default max-age=3600", "--acme ": "default off",
            "--acme-directory": "https://acme-v02.api.letsencrypt.org/directory", "--acme-on-demand ": "default on",
            "--acme-on-demand-rate": "default 10", "--acme-on-demand-weekly": "default 20",
            "--cdn-watch ": "default off", "--cdn-watch-interval": "default 21600", "--cdn-watch-rate": "default 60",
            "--apple-fetcher-agent": "default AASA-Bot/", "--google-watch ": "default off",
            "--google-watch-interval": "default 21600", "--google-watch-rate": "default 60",
        ])
    func serveHelpDefaults(flag: String, expected: String) throws {
        let help = Self.collapsed(try BinaryRunner.run(["serve", "--help"]).stdout)
        // The option's own text: from its name to the next option.
        let start = try #require(help.range(of: flag.hasSuffix(" ") ? flag : flag + " <"), "\(flag)")
        let rest = help[start.upperBound...]
        let end = rest.range(of: " --")?.lowerBound ?? rest.endIndex
        #expect(rest[..<end].contains(expected), "\(flag): \(rest[..<end])")
    }

    @Test("match --sites DIR URL takes each URL's site from its host, on any number of hosts")
    func matchBySitesWithoutDomain() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/links.example.com/apple-app-site-association", Self.valid)
        try folder.write("sites/other.example.com/apple-app-site-association", Self.valid)
        let output = try BinaryRunner.run(
            ["match", "--sites", "sites", "https://links.example.com/buy/1"], in: folder.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("match") && output.stdout.contains("ABCDE12345.com.example.app"))
        let two = try BinaryRunner.run(
            ["match", "--sites", "sites", "https://links.example.com/buy/1", "https://other.example.com/buy/2"],
            in: folder.url)
        #expect(two.status == 0, "\(two.stderr)")
        #expect(two.stdout.contains("https://other.example.com/buy/2\n  apple    match "), "\(two.stdout)")
        let unknown = try BinaryRunner.run(
            ["match", "--sites", "sites", "https://links.example.com/buy/1", "https://unknown.example.com/"],
            in: folder.url)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no site folder serves unknown.example.com"), "\(unknown.stderr)")
        #expect(unknown.stdout.isEmpty)
    }

    @Test(
        "validate --strict fails on a warning in every format; without it the run passes",
        arguments: ["text", "json", "sarif", "github"])
    func strict(format: String) throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("apple-app-site-association", Self.warned)
        let plain = try BinaryRunner.run(["validate", "--format", format, path])
        #expect(plain.status == 0, "\(plain.stdout)")
        let strict = try BinaryRunner.run(["validate", "--strict", "--format", format, path])
        #expect(strict.status == 1, "\(strict.stdout)")
        switch format {
        case "text": #expect(strict.stdout.contains("failing --strict"))
        case "json":
            let document = try #require(
                JSONSerialization.jsonObject(with: Data(strict.stdout.utf8)) as? [String: Any])
            #expect(document["strict"] as? Bool == true && document["passed"] as? Bool == false)
            #expect(document["valid"] as? Bool == true)
        case "sarif": #expect(strict.stdout.contains(#""level" : "error""#) && !plain.stdout.contains(#""error""#))
        default: #expect(strict.stdout.hasPrefix("::error ") && plain.stdout.hasPrefix("::warning "))
        }
    }

    @Test("an app ID without a team ID is an error: the link can never open the app")
    func missingTeamID() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "apple-app-site-association",
            Self.valid.replacingOccurrences(of: "ABCDE12345.com.example.app", with: "com.acmeshop.app"))
        let output = try BinaryRunner.run(["validate", path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("error: \"com.acmeshop.app\" has no team ID"), "\(output.stdout)")
        #expect(output.stdout.contains("[AASA202]"))
    }

    @Test("validate names a .well-known folder and a misnamed file in a site as serve does (SITE003, SITE004)")
    func misplacedFiles() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/a.example.com/.well-known/apple-app-site-association", Self.valid)
        try folder.write("sites/b.example.com/apple-app-site-association.json", Self.valid)
        let whole = try BinaryRunner.run(["validate", "sites"], in: folder.url)
        #expect(whole.status == 2)
        for expected in [
            "sites/a.example.com/.well-known: warning: never served: a site folder holds", "[SITE003]",
            "sites/b.example.com/apple-app-site-association.json: warning: never served: the file must be named",
            "sites/a.example.com: warning: the site folder has no", "[SITE004]",
        ] {
            #expect(whole.stdout.contains(expected), "\(expected)\n\(whole.stdout)")
        }
        let site = try BinaryRunner.run(["validate", "sites/a.example.com"], in: folder.url)
        #expect(site.stdout.contains("move them out of .well-known/ into the site folder [SITE003]"), "\(site.stdout)")
        // serve says the same about the .well-known folder.
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--admin", "off"])
        defer { _ = server.stop() }
        #expect(server.errors.contains("move them out of .well-known/ into the site folder"), "\(server.errors)")
    }

    @Test("one count of sites: the log, /metrics, the status page and /sites.json say 2 sites and 1 alias")
    func oneCount() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.valid)
        try folder.write("sites/*.example.com/apple-app-site-association", Self.valid)
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("sites/www.example.org").path, withDestinationPath: "example.com")
        let server = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        let admin = try #require(server.adminPort)
        let listening = try #require(server.errors.split(separator: "\n").first { $0.contains("listening on http") })
        #expect(listening.contains("sites=2") && listening.contains("aliases=1"), "\(listening)")
        let metrics = String(decoding: try Curl.request("http://127.0.0.1:\(admin)/metrics").body, as: UTF8.self)
        #expect(metrics.contains("\naasa_sites 2.0\n") && metrics.contains("\naasa_site_aliases 1.0\n"), "\(metrics)")
        let page = String(decoding: try Curl.request("http://127.0.0.1:\(admin)/").body, as: UTF8.self)
        #expect(page.contains("<th>Sites (folders)</th><th>Aliases (links to a site)</th>"))
        #expect(page.contains("<tr><td>2</td><td>1</td>"))
        let json = try Curl.request("http://127.0.0.1:\(admin)/sites.json").body
        let summary = try #require(
            (JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])?["summary"] as? [String: Any])
        #expect(summary["sites"] as? Int == 2 && summary["aliases"] as? Int == 1)
    }

    @Test(
        "an unreadable private key: the user the server runs as, the owner and mode found, no make certs",
        .enabled(if: geteuid() == 0, "only root can run the server as another user"),
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs setpriv (util-linux)"))
    func unreadableKey() throws {
        let folder = try TemporaryFolder()
        #expect(chmod(folder.url.path, 0o755) == 0)
        try folder.write("sites/a.example.com/apple-app-site-association", Self.valid)
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("a", names: ["a.example.com"])
        let key = certificates.directory.appendingPathComponent("a/privkey.pem").path
        #expect(chmod(key, 0o600) == 0)
        // As nobody, the way a service user that does not own the key runs it.
        let output = try BinaryRunner.run(
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", BinaryRunner.binary.path, "serve", "--sites",
                "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off", "--admin", "off",
            ], in: folder.url, executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
        #expect(output.status == 1)
        #expect(output.stderr.contains("cannot read the private key \(key): permission denied"), "\(output.stderr)")
        #expect(output.stderr.contains("(uid 65534, gid 65534)"))
        #expect(output.stderr.contains("owned by root:root with mode 0600"))
        #expect(!output.stderr.contains("make certs"))
    }

    @Test("diff names no rule as deciding for an app that no rule lists any more")
    func diffNamesOnlyDecidingRules() throws {
        let folder = try TemporaryFolder()
        let both = #"["ABCDE12345.com.example.app", "ABCDE12345.com.example.gone"]"#
        try folder.write(
            "old.json", Self.valid.replacingOccurrences(of: #"["ABCDE12345.com.example.app"]"#, with: both))
        try folder.write("new.json", Self.valid)
        let output = try BinaryRunner.run(
            ["diff", "old.json", "new.json", "--url", "https://example.com/buy/1"], in: folder.url)
        let line = try #require(
            output.stdout.split(separator: "\n").first { $0.contains("ABCDE12345.com.example.gone: match") })
        #expect(
            line
                == #"https://example.com/buy/1 ABCDE12345.com.example.gone: match → no_match "#
                + #"(was details[0].components[0] {"/": "/buy/*"}; "#
                + "now ABCDE12345.com.example.gone is not in applinks.details of this file)"
        )
        let json = try BinaryRunner.run(
            ["diff", "--json", "old.json", "new.json", "--url", "https://example.com/buy/1"], in: folder.url)
        let document = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let decision = try #require((document["decisions"] as? [[String: Any]])?.first)
        #expect(decision["rule"] == nil)
        #expect(decision["oldRule"] as? String == #"details[0].components[0] {"/": "/buy/*"}"#)
    }
}
