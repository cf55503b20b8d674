import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

extension FakeCDN {
    /// The stand-in as Google's Digital Asset Links API.
    var statementsURL: String { "https://127.0.0.1:\(port)/v1/statements:list" }

    /// The questions about one domain so far.
    func questions(about domain: String) -> [String] {
        requests.filter { $0.contains("source.web.site=https://\(domain)&") }
    }
}

/// `serve --google-watch on` against a stand-in for Google's Digital Asset Links API: every
/// state, compared by meaning (package and fingerprint pairs, dynamic rules), history, the
/// rate, no question for wildcard sites or sites without assetlinks.json, and what
/// /sites.json, the status page and /metrics (checked by promtool) show (docs/watches.md,
/// "Google's view").
@Suite("Google watch", .serialized)
struct GoogleWatchTests {
    static func fingerprint(_ byte: String) -> String {
        Array(repeating: byte, count: 32).joined(separator: ":")
    }

    static let rules = #"[{"/": "/shop/*"}, {"/": "/account/*", "exclude": true}]"#

    /// A site's assetlinks.json granting handle_all_urls to `package`, with dynamic rules or not.
    static func file(_ package: String, _ byte: String = "AB", rules: Bool = false) -> String {
        let extensions =
            rules
            ? #", "relation_extensions": {"delegate_permission/common.handle_all_urls": "#
                + #"{"dynamic_app_link_components": \#(Self.rules)}}"# : ""
        return #"[{"relation": ["delegate_permission/common.handle_all_urls"]\#(extensions), "target": "#
            + #"{"namespace": "android_app", "package_name": "\#(package)", "#
            + #""sha256_cert_fingerprints": ["\#(fingerprint(byte))"]}}]"#
    }

    /// Google's ListResponse for the same grant: another shape, a lower-case fingerprint.
    static func statements(_ domain: String, _ package: String, _ byte: String = "AB", rules: Bool = false) -> String {
        let extensions = rules ? #", "relationExtensions": {"dynamic_app_link_components": \#(Self.rules)}"# : ""
        return #"{"statements": [{"source": {"web": {"site": "https://\#(domain)."}}, "#
            + #""relation": "delegate_permission/common.handle_all_urls", "target": {"androidApp": "#
            + #"{"packageName": "\#(package)", "certificate": {"sha256Fingerprint": "#
            + #""\#(fingerprint(byte).lowercased())"}}}\#(extensions)}], "maxAge": "599.9s", "debugString": "#
            + #""********** ERRORS **********\nNone!\n"}"#
    }

    /// Google's ListResponse when it could not fetch the domain's file.
    static func failing(_ domain: String) -> String {
        #"{"maxAge": "59.9s", "debugString": "********** ERRORS **********\n* Error: unavailable: "#
            + #"Fetching https://\#(domain)/.well-known/assetlinks.json failed.\n", "#
            + #""errorCode": ["ERROR_CODE_FETCH_ERROR"]}"#
    }

    let folder: TemporaryFolder
    let copies: TemporaryFolder
    let google: FakeCDN

    init() throws {
        folder = try TemporaryFolder()
        copies = try TemporaryFolder()
        google = try FakeCDN()
        for (site, package, rules) in [
            ("in-sync.example.com", "com.example.shop", false), ("stale.example.com", "com.example.old", false),
            ("differs.example.com", "com.example.ours", false), ("rules.example.com", "com.example.rules", true),
            ("failing.example.com", "com.example.fail", false), ("broken.example.com", "com.example.broken", false),
            ("*.wild.example.com", "com.example.wild", false),
        ] {
            try folder.write("sites/\(site)/assetlinks.json", Self.file(package, rules: rules))
        }
        try folder.write(
            "sites/apple-only.example.com/apple-app-site-association",
            SiteFixtures.oneAppAASA("a"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("sites/www.in-sync.example.com").path,
            withDestinationPath: "in-sync.example.com")
        var plan: [String: [String: String]] = [:]
        for (domain, package, rules) in [
            ("in-sync.example.com", "com.example.shop", false), ("www.in-sync.example.com", "com.example.shop", false),
            ("stale.example.com", "com.example.old", false), ("differs.example.com", "com.example.theirs", false),
            ("rules.example.com", "com.example.rules", false),
        ] {
            let path = try copies.write("\(domain).json", Self.statements(domain, package, rules: rules))
            plan[domain] = ["mode": "file", "path": path]
        }
        let failing = try copies.write("failing.json", Self.failing("failing.example.com"))
        plan["failing.example.com"] = ["mode": "file", "path": failing]
        plan["broken.example.com"] = ["mode": "status", "status": "500"]
        try google.plan(plan)
        try folder.write("google.key", "test-key_1.2\n")
    }

    func serve(watch: Bool) throws -> RunningServer {
        try RunningServer(
            in: folder.url,
            [
                "--sites", "sites", "--access-log", "off", "--google-watch-url", google.statementsURL,
                "--google-watch-ca", google.certificates.caFile, "--google-watch-interval", "1",
                "--google-watch-rate", "600", "--google-watch-key-file", "google.key",
            ] + (watch ? ["--google-watch", "on"] : []))
    }

    func state(_ server: RunningServer, _ site: String) -> String? {
        (try? server.watchLines("google"))?[site]?["state"] as? String
    }

    @Test("every state, by meaning; a changed file makes Google's copy stale; within the rate")
    func states() throws {
        let started = Date()
        let server = try serve(watch: true)
        let expected = [
            "in-sync.example.com": "in_sync", "stale.example.com": "in_sync", "differs.example.com": "differs",
            "rules.example.com": "differs", "failing.example.com": "failing", "broken.example.com": "error",
        ]
        #expect(
            eventually(30) { expected.allSatisfy { state(server, $0.key) == $0.value } },
            "\(String(describing: try? server.watchLines("google")))")
        let all = try server.watchLines("google")
        let failing = try #require(all["failing.example.com"])
        #expect(failing["reason"] as? String == "ERROR_CODE_FETCH_ERROR")
        #expect(
            failing["details"] as? String
                == "* Error: unavailable: Fetching https://failing.example.com/.well-known/assetlinks.json failed.")
        #expect(all["broken.example.com"]?["reason"] as? String == "HTTP 500")
        #expect(all["differs.example.com"]?["outOfSyncSince"] is String)
        #expect(all["in-sync.example.com"]?["outOfSyncSince"] is NSNull)
        #expect(all["in-sync.example.com"]?["checkedAt"] is String)
        #expect(all["*.wild.example.com"]?["state"] as? String == "unchecked")
        #expect(all["apple-only.example.com"]?["state"] as? String == "unchecked")

        // The site's file changes; Google still has the old one: stale, since the change.
        let changed = Int(Date().timeIntervalSince1970)
        let site = folder.url.appendingPathComponent("sites/stale.example.com").path
        try folder.write("sites/stale.example.com/assetlinks.json.new", Self.file("com.example.new"))
        rename(site + "/assetlinks.json.new", site + "/assetlinks.json")
        #expect(eventually(20) { state(server, "stale.example.com") == "stale" }, "\(server.errors)")
        let since = try #require(try server.watchLines("google")["stale.example.com"]?["outOfSyncSince"] as? String)
        #expect(since >= CDNWatchTests.iso8601(changed - 2) && since <= CDNWatchTests.iso8601(changed + 5))
        #expect(server.errors.contains("google: Google has an earlier version domain=stale.example.com from=in_sync"))
        #expect(
            try server.adminText("/metrics").contains("aasa_google_out_of_sync_seconds{site=\"stale.example.com\"}"))
        let filtered = try server.watchLines("google", "?google=out-of-sync")
        #expect(filtered.keys.contains("stale.example.com") && filtered["in-sync.example.com"] == nil)
        let page = try server.adminText("/?google=out-of-sync")
        #expect(page.contains("<h2>Google</h2>") && page.contains("stale.example.com"))
        #expect(!page.contains("test-key"))
        // Google catches up.
        let new = try copies.write("new.json", Self.statements("stale.example.com", "com.example.new"))
        var plan = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: google.planFile)))
                as? [String: [String: String]])
        plan["stale.example.com"] = ["mode": "file", "path": new]
        try google.plan(plan)
        #expect(eventually(20) { state(server, "stale.example.com") == "in_sync" })

        let metrics = try server.adminText("/metrics")
        for line in [
            "aasa_google_sites{state=\"in_sync\"} 3", "aasa_google_sites{state=\"differs\"} 2",
            "aasa_google_sites{state=\"failing\"} 1", "aasa_google_sites{state=\"error\"} 1",
            "aasa_google_sites{state=\"stale\"} 0", "aasa_google_sites{state=\"unchecked\"} 0",
            "aasa_google_checks_total{result=\"in_sync\"}",
        ] {
            #expect(metrics.contains(line), "\(line)")
        }
        #expect(!metrics.contains("aasa_cdn_sites"))
        let metricsFile = try folder.write("metrics.txt", metrics)
        let promtool = try BinaryRunner.run(
            ["-c", "promtool check metrics < '\(metricsFile)'"], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(promtool.status == 0 && promtool.stdout.isEmpty && promtool.stderr.isEmpty, "\(promtool)")
        // prometheus_client reads every family, each state a sample.
        let families = try PythonPrometheus.parse(metrics)
        #expect(families.contains("aasa_google_sites 6") && families.contains("aasa_google_checks 5"), "\(families)")

        // Every domain with an assetlinks.json had its turn, aliases too; none for wildcards
        // or sites without the file; the question as documented; within the rate.
        let elapsed = Date().timeIntervalSince(started)
        for domain in expected.keys { #expect(google.questions(about: domain).count >= 2, "\(domain)") }
        #expect(google.questions(about: "www.in-sync.example.com").count >= 1)
        #expect(!google.requests.contains { $0.contains("wild.example.com") || $0.contains("apple-only") })
        #expect(Double(google.requests.count) <= elapsed * 10 + 2, "\(google.requests.count) in \(elapsed) s")
        #expect(
            google.questions(about: "in-sync.example.com").first?.hasPrefix(
                "GET /v1/statements:list?source.web.site=https://in-sync.example.com"
                    + "&relation=delegate_permission/common.handle_all_urls&return_relation_extensions=true"
                    + "&key=test-key_1.2 ") == true, "\(google.requests.first ?? "")")
        #expect(google.requests.allSatisfy { $0.hasSuffix("aasa-server/\(CDNWatchTests.version) (google-watch)") })
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }

    @Test("with the watch off nothing is sent; google is unchecked and has no series")
    func off() throws {
        let server = try serve(watch: false)
        #expect(try server.watchLines("google")["in-sync.example.com"]?["state"] as? String == "unchecked")
        let metrics = try server.adminText("/metrics")
        #expect(!metrics.contains("aasa_google_"))
        #expect(
            try server.adminText("/").contains("<dt>Google</dt><dd class=\"google\"><span class=\"none\">unchecked"))
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
        #expect(google.requests.isEmpty, "\(google.requests)")
    }

    @Test("an unreadable key file is a settings error")
    func missingKey() throws {
        let result = try BinaryRunner.run(
            [
                "serve", "--sites", folder.url.appendingPathComponent("sites").path, "--http", "127.0.0.1:0",
                "--admin", "off", "--google-watch", "on", "--google-watch-key-file", "/nonexistent/google.key",
            ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("/nonexistent/google.key: cannot read the Google watch's API key"), "\(result)")
    }
}
