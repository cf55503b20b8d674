import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// A served file deleted while its site folder stays serves its last copy for the
/// deleted-file grace, with a warning (docs/serving.md, "Deleted files"): a deploy that
/// deletes and writes it again is never a 404 Apple's CDN would keep.
@Suite("deleted-file grace")
struct DeletedFileGraceTests {
    static func file(_ app: String) -> String { SiteFixtures.oneAppAASA(app) }

    static func served(_ server: RunningServer, host: String = "example.com") throws -> String {
        try ServedApp.served(server, host: host)
    }

    static func admin(_ server: RunningServer, _ path: String) throws -> String {
        let port = try #require(server.adminPort)
        return String(decoding: try Curl.request("http://127.0.0.1:\(port)\(path)").body, as: UTF8.self)
    }

    @Test("a deleted file serves its last copy with a warning; written again, the new copy serves")
    func grace() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("sites/example.com/apple-app-site-association", Self.file("one"))
        try folder.write("sites/other.example/apple-app-site-association", Self.file("one"))
        let server = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        #expect(try Self.served(server) == "one")

        try FileManager.default.removeItem(atPath: path)
        #expect(try eventually(10) { try Self.admin(server, "/sites.json").contains(#""servedUntil""#) })
        #expect(try Self.served(server) == "one")
        let document = try Self.admin(server, "/sites.json")
        #expect(document.contains(#""file":"apple-app-site-association""#), "\(document)")
        #expect(document.contains("SITE011"), "\(document)")
        #expect(server.errors.contains("warning example.com: apple-app-site-association deleted"), "\(server.errors)")
        #expect(try Self.admin(server, "/").contains("serving the last copy until"))
        #expect(try Self.admin(server, "/metrics").contains("\naasa_site_files_deleted 1"))

        try folder.write("sites/example.com/apple-app-site-association", Self.file("two"))
        #expect(try eventually(10) { try Self.served(server) == "two" })
        #expect(try eventually(10) { try !Self.admin(server, "/sites.json").contains(#""servedUntil""#) })

        // A new version renamed over the file is no deletion.
        let warnings = server.errors.components(separatedBy: "code=SITE011").count
        try folder.write("sites/example.com/.next", Self.file("three"))
        #expect(rename(folder.url.path + "/sites/example.com/.next", path) == 0)
        #expect(try eventually(10) { try Self.served(server) == "three" })
        #expect(try !Self.admin(server, "/sites.json").contains(#""servedUntil""#))
        #expect(server.errors.components(separatedBy: "code=SITE011").count == warnings)

        // The whole site folder deleted: 404 at once, no grace.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("sites/other.example"))
        #expect(try eventually(5) { try Self.served(server, host: "other.example") == "404" })
    }

    @Test("past the grace (--deleted-file-grace 1) a deleted file answers 404")
    func expiry() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("sites/example.com/apple-app-site-association", Self.file("one"))
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--deleted-file-grace", "1"])
        defer { _ = server.stop() }
        #expect(try Self.served(server) == "one")
        try FileManager.default.removeItem(atPath: path)
        #expect(try eventually(10) { try Self.served(server) == "404" })
        #expect(server.errors.contains("apple-app-site-association deleted"), "\(server.errors)")
        #expect(server.errors.contains("reason=\"deleted-file grace ended\""), "\(server.errors)")
        #expect(try !Self.admin(server, "/sites.json").contains(#""servedUntil""#))
    }
}
