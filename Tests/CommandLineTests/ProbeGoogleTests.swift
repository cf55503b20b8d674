import Foundation
import TestSupport
import Testing

/// `probe --google` against the project's own server as the origin and the HTTPS stand-in for
/// Google's Digital Asset Links API (Tests/Peers/fake-apple-cdn.py), and `probe` on a URL
/// with a path: each platform's answer, by the origin's files and by Google's view.
@Suite("aasa-server probe --google and probe URL", .serialized)
final class ProbeGoogleTests {
    static let domains = ["in-sync.test", "differs.test", "rules.test", "failing.test", "broken.test"]

    let folder: TemporaryFolder
    let certificates: TestCertificates
    let google: FakeCDN
    let server: RunningServer

    init() throws {
        folder = try TemporaryFolder()
        certificates = try TestCertificates(in: folder)
        try certificates.issue("example.test", names: Self.domains)
        for (domain, package, rules) in [
            ("in-sync.test", "com.example.shop", false), ("differs.test", "com.example.ours", false),
            ("rules.test", "com.example.rules", true), ("failing.test", "com.example.fail", false),
            ("broken.test", "com.example.broken", false),
        ] {
            try folder.write(
                "sites/\(domain)/apple-app-site-association", SiteFixtures.oneAppAASA(path: "/buy/*"))
            try folder.write("sites/\(domain)/assetlinks.json", GoogleWatchTests.file(package, rules: rules))
        }
        google = try FakeCDN()
        var plan: [String: [String: String]] = [:]
        for (domain, package) in [
            ("in-sync.test", "com.example.shop"), ("differs.test", "com.example.theirs"),
            ("rules.test", "com.example.rules"),
        ] {
            let path = try folder.write("google/\(domain).json", GoogleWatchTests.statements(domain, package))
            plan[domain] = ["mode": "file", "path": path]
        }
        let failing = try folder.write("google/failing.json", GoogleWatchTests.failing("failing.test"))
        plan["failing.test"] = ["mode": "file", "path": failing]
        plan["broken.test"] = ["mode": "status", "status": "500"]
        try google.plan(plan)
        server = try RunningServer(
            in: folder.url,
            [
                "--sites", "sites", "--certs", certificates.directory.appendingPathComponent("example.test").path,
                "--https", "127.0.0.1:0", "--http", "off", "--default-certificate", "example.test",
            ])
    }

    deinit {
        _ = server.stop()
    }

    func probe(_ target: String, google: Bool = true, _ extra: [String] = []) throws -> BinaryRunner.Output {
        let asked =
            google
            ? ["--google", "--google-url", self.google.statementsURL, "--google-ca", self.google.certificates.caFile]
            : []
        return try BinaryRunner.run(
            ["probe", "--cacert", certificates.caFile, "--connect-to", "127.0.0.1:\(server.port)", "--timeout", "3"]
                + asked + extra + [target])
    }

    @Test("in sync: Google's statements mean what the origin's assetlinks.json says; asked as the watch asks")
    func inSync() throws {
        let output = try probe("in-sync.test")
        #expect(output.status == 0, "\(output)")
        #expect(
            output.stdout.contains(
                "pass  google: Google's view means the same as the origin's assetlinks.json (1 grant(s))"),
            "\(output.stdout)")
        #expect(
            google.questions(about: "in-sync.test").last?.hasPrefix(
                "GET /v1/statements:list?source.web.site=https://in-sync.test"
                    + "&relation=delegate_permission/common.handle_all_urls&return_relation_extensions=true ") == true,
            "\(google.requests)")
        let json = try probe("in-sync.test", ["--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let items = try #require((document["domains"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])
        #expect(items.contains { $0["name"] as? String == "google" && $0["outcome"] as? String == "pass" }, "\(items)")
    }

    @Test("differs: which package, fingerprint or dynamic rules")
    func differs() throws {
        let fingerprint = GoogleWatchTests.fingerprint("AB")
        let output = try probe("differs.test")
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout.contains("warn  google: Google's view differs from the origin's assetlinks.json"))
        #expect(
            output.stdout.contains("com.example.ours \(fingerprint): in the origin's file only"), "\(output.stdout)")
        #expect(output.stdout.contains("com.example.theirs \(fingerprint): in Google's view only"))
        let rules = try probe("rules.test")
        #expect(
            rules.stdout.contains("com.example.rules \(fingerprint): other dynamic rules (the origin's file: [{"),
            "\(rules.stdout)")
        #expect(rules.stdout.contains("; Google's view: none)"))
    }

    @Test("failing: Google's error codes and debugString's error lines; a 500 is an error of the question")
    func failing() throws {
        let output = try probe("failing.test")
        #expect(output.status == 1, "\(output)")
        #expect(
            output.stdout.contains("fail  google: Google cannot verify failing.test: ERROR_CODE_FETCH_ERROR"),
            "\(output.stdout)")
        #expect(
            output.stdout.contains(
                "* Error: unavailable: Fetching https://failing.test/.well-known/assetlinks.json failed.")
        )
        let broken = try probe("broken.test")
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("fail  google: cannot ask Google: HTTP 500"), "\(broken.stdout)")
        // Without --google nothing is asked.
        let before = google.requests.count
        #expect(try probe("in-sync.test", google: false).status == 0)
        #expect(google.requests.count == before)
    }

    @Test("a URL: Apple's decision, Android's unknown without dynamic rules, and a no-match with its reason")
    func url() throws {
        let opens = try probe("https://in-sync.test/buy/1", google: false)
        #expect(opens.status == 0, "\(opens)")
        #expect(
            opens.stdout.contains(
                "pass  ios: https://in-sync.test/buy/1 opens \(SiteFixtures.appID()) by the origin's "
                    + "apple-app-site-association"), "\(opens.stdout)")
        #expect(opens.stdout.contains(#"rule: {"/": "/buy/*"}"#))
        #expect(
            opens.stdout.contains(
                "note  android: https://in-sync.test/buy/1 may open com.example.shop by the origin's assetlinks.json: "
                    + "the app's manifest decides"))
        #expect(opens.stdout.contains("unknown com.example.shop: statements[0] grants"))
        #expect(!opens.stdout.contains("by google"))

        let web = try probe("https://rules.test/account/1")
        #expect(web.status == 0, "\(web)")
        #expect(
            web.stdout.contains(
                "warn  ios: no app opens https://rules.test/account/1 by the origin's apple-app-site-association"),
            "\(web.stdout)")
        #expect(web.stdout.contains("no_match \(SiteFixtures.appID()): "))
        #expect(
            web.stdout.contains(
                "warn  android: no app opens https://rules.test/account/1 by the origin's assetlinks.json"))
        #expect(web.stdout.contains("exclude com.example.rules: "))
        #expect(web.stdout.contains(#"rule: {"/": "/account/*", "exclude": true}"#))
        // Google holds the file without the rules: there the manifest decides.
        #expect(web.stdout.contains("note  android by google: https://rules.test/account/1 may open com.example.rules"))

        let shop = try probe("https://rules.test/shop/1", google: false)
        #expect(
            shop.stdout.contains("pass  android: https://rules.test/shop/1 opens com.example.rules"), "\(shop.stdout)")

        // Google cannot verify the domain: no app by its view, and why.
        let failing = try probe("https://failing.test/buy/1")
        #expect(
            failing.stdout.contains(
                "warn  android by google: no app opens https://failing.test/buy/1 by Google's view: Google cannot "
                    + "verify the domain (ERROR_CODE_FETCH_ERROR)"), "\(failing.stdout)")
        // Google could not be asked (HTTP 500): nothing is known, not "no app".
        let broken = try probe("https://broken.test/buy/1")
        #expect(
            broken.stdout.contains(
                "note  android by google: unknown whether an app opens https://broken.test/buy/1 by Google's view: "
                    + "Google could not be asked"), "\(broken.stdout)")
        #expect(!broken.stdout.contains("no app opens https://broken.test/buy/1 by Google's view"))
    }
}
