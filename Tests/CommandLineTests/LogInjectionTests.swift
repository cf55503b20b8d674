import Foundation
import TestSupport
import Testing

/// A name from disk cannot forge an event line: a site folder whose name holds a line break
/// and a fake event is no host name (`SITE008`), reported on one line with the break escaped,
/// at start-up and on reload.
@Suite("log injection")
struct LogInjectionTests {
    static let clean =
        SiteFixtures.oneAppAASA(path: "/buy/*")
    static let forged = "2026-01-01T00:00:00Z info reloaded; changed: forged.example"

    @Test("a site folder named with a line break is logged on one line, the break escaped")
    func folderNameCannotForgeALine() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.clean)
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1"])
        defer { _ = server.stop() }
        try folder.write("sites/evil\n\(Self.forged)\r/apple-app-site-association", "{")
        let adminPort = try #require(server.adminPort)
        #expect(
            try eventually(10) {
                let metrics = try Curl.request("http://127.0.0.1:\(adminPort)/metrics").body
                return String(decoding: metrics, as: UTF8.self).contains(#"code="SITE008""#)
            })
        let restarted = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1"])
        defer { _ = restarted.stop() }
        for errors in [server.errors, restarted.errors] {
            let lines = errors.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(!lines.contains { $0.hasPrefix(Self.forged) }, "\(errors)")
            #expect(!errors.contains("\r"))
        }
        let lines = restarted.errors.split(separator: "\n")
        #expect(
            lines.contains { $0.contains("[SITE008]") && $0.contains(#"evil\n\#(Self.forged)\r"#) },
            "\(restarted.errors)")
    }
}
