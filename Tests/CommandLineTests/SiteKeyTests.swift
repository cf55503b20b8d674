import Foundation
import TestSupport
import Testing

/// Site folder names go through the one host normalizer (docs/sites.md, "Sites layout"): a
/// folder `Example.COM.` serves `example.com`, a name that is no host is `SITE008`, and of two
/// folders for one host the one named as the host serves it, the other `SITE009`.
@Suite("site folder keys")
struct SiteKeyTests {
    static func metrics(_ server: RunningServer) throws -> String {
        let port = try #require(server.adminPort)
        return String(decoding: try Curl.request("http://127.0.0.1:\(port)/metrics").body, as: UTF8.self)
    }

    @Test("a folder named Example.COM. serves example.com")
    func trailingDotAndCase() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/Example.COM./apple-app-site-association", SiteFixtures.oneAppAASA("one"))
        let server = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        for host in ["example.com", "EXAMPLE.com.", "example.com:8443"] {
            #expect(try ServedApp.served(server, host: host) == "one", "\(host)")
        }
        let validate = try BinaryRunner.run(["validate", "sites"], in: folder.url)
        #expect(validate.status == 0, "\(validate.stdout)")
    }

    @Test("a folder that is no host name is SITE008; two for one host are SITE009, the exact name serving")
    func reported() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", SiteFixtures.oneAppAASA("one"))
        try folder.write("sites/EXAMPLE.com./apple-app-site-association", SiteFixtures.oneAppAASA("two"))
        try folder.write("sites/bad name/apple-app-site-association", SiteFixtures.oneAppAASA("three"))
        try folder.write("sites/port.example:8443/apple-app-site-association", SiteFixtures.oneAppAASA("three"))
        let validate = try BinaryRunner.run(["validate", "sites"], in: folder.url)
        for expected in [
            "sites/bad name: warning: bad name is not a host name", "[SITE008]", "sites/port.example:8443: warning",
            "sites/EXAMPLE.com.: warning: EXAMPLE.com. names the same host as example.com", "[SITE009]",
        ] {
            #expect(validate.stdout.contains(expected), "\(expected)\n\(validate.stdout)")
        }
        let server = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        #expect(try ServedApp.served(server, host: "example.com") == "one")
        let metrics = try Self.metrics(server)
        #expect(metrics.contains(#"aasa_load_problems{code="SITE008",severity="warning"} 2.0"#), "\(metrics)")
        #expect(metrics.contains(#"aasa_load_problems{code="SITE009",severity="warning"} 1.0"#), "\(metrics)")
        #expect(metrics.contains("\naasa_sites 1.0\n"), "\(metrics)")
    }

    @Test("on reload the folder named as the host keeps it, and the other takes over when it goes")
    func reload() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", SiteFixtures.oneAppAASA("one"))
        let server = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        #expect(try ServedApp.served(server, host: "example.com") == "one")
        try folder.write("sites/Example.COM./apple-app-site-association", SiteFixtures.oneAppAASA("two"))
        #expect(try eventually(10) { try Self.metrics(server).contains(#"code="SITE009""#) })
        #expect(try ServedApp.served(server, host: "example.com") == "one")
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("sites/example.com"))
        #expect(try eventually(10) { try ServedApp.served(server, host: "example.com") == "two" })
        #expect(try eventually(10) { try !Self.metrics(server).contains(#"code="SITE009""#) })
    }
}
