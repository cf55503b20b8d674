import Foundation
import TestSupport
import Testing

@Suite("serve --invalid-sites")
struct InvalidSitesTests {
    /// Two valid sites and one broken one.
    private func sites() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for name in ["good.test", "fine.test"] {
            try folder.write(
                "sites/\(name)/apple-app-site-association",
                SiteFixtures.webCredentialsAASA())
        }
        try folder.write("sites/bad.test/apple-app-site-association", SiteFixtures.trailingCommaAASA)
        return folder
    }

    @Test("refuse (the default, and given): one broken site stops start-up, exit 1")
    func refuse() throws {
        let folder = try sites()
        for extra in [[], ["--invalid-sites", "refuse"]] {
            let output = try BinaryRunner.run(
                ["serve", "--sites", "sites", "--http", "127.0.0.1:0", "--admin", "off"] + extra, in: folder.url)
            #expect(output.status == 1)
            #expect(output.stderr.contains("not starting"), "\(output.stderr)")
            #expect(output.stderr.contains("--invalid-sites skip"), "\(output.stderr)")
        }
    }

    @Test("skip: the valid sites serve, /readyz is ready, the broken site is reported once, not as a reload")
    func skip() throws {
        let folder = try sites()
        for (arguments, environment) in [
            (["--sites", "sites", "--invalid-sites", "skip"], [:]),
            (["--sites", "sites"], ["AASA_INVALID_SITES": "skip"]),
        ] {
            let server = try RunningServer(in: folder.url, arguments, environment: environment)
            defer { _ = server.stop() }
            for name in ["good.test", "fine.test"] {
                let file = try Curl.request(
                    "http://127.0.0.1:\(server.port)/apple-app-site-association", ["-H", "Host: \(name)"])
                #expect(file.status == 200)
            }
            let bad = try Curl.request(
                "http://127.0.0.1:\(server.port)/apple-app-site-association", ["-H", "Host: bad.test"])
            #expect(bad.status == 404)
            let admin = try #require(server.adminPort)
            #expect(try Curl.request("http://127.0.0.1:\(admin)/readyz").status == 200)
            // One event naming the refused site; no reload counted (AASAReloadPartial would fire
            // at every start), the file's own series names the site.
            #expect(
                server.errors.contains("started without invalid sites: bad.test (new, not served)"),
                "\(server.errors)")
            #expect(server.errors.contains("reason=start-up"), "\(server.errors)")
            #expect(!server.errors.contains("reload partly applied"), "\(server.errors)")
            let metrics = String(decoding: try Curl.request("http://127.0.0.1:\(admin)/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"aasa_reloads_total{result="partial"} 0"#), "\(metrics)")
            #expect(
                metrics.contains(#"aasa_site_invalid_files{site="bad.test",file="apple-app-site-association"} 1"#),
                "\(metrics)")
            let status = String(decoding: try Curl.request("http://127.0.0.1:\(admin)/").body, as: UTF8.self)
            #expect(status.contains("id=\"startup-skipped\""))
            #expect(!status.contains("id=\"reload-partial\""))
        }
    }

    @Test("skip with no valid site at all still does not start, exit 1")
    func skipNothingValid() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/bad.test/apple-app-site-association", "{,}")
        let output = try BinaryRunner.run(
            ["serve", "--sites", "sites", "--http", "127.0.0.1:0", "--admin", "off", "--invalid-sites", "skip"],
            in: folder.url)
        #expect(output.status == 1)
        #expect(output.stderr.contains("no site in sites is valid"), "\(output.stderr)")
    }
}
