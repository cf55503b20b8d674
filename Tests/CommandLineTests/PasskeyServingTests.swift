import Foundation
import TestSupport
import Testing

/// The passkey files served by the real binary and fetched with curl, as a relying party checks
/// its deployment: headers, ETag, gzip and 304 as for the association files; a broken file
/// refused at start-up and the last good one kept on reload; listed on the admin pages.
@Suite("passkey files served", .serialized)
final class PasskeyServingTests {
    static let webauthn =
        #"{"origins": ["https://example.com", "https://shop.example.co.uk", "https://example.de"]}"# + "\n"
        + String(repeating: " ", count: 400) + "\n"
    static let second = #"{"origins": ["https://example.com", "https://example.fr"]}"#
    static let endpoints =
        #"{"enroll": "https://example.com/account/passkeys/new", "manage": "https://example.com/account/passkeys"}"#
    /// Six registrable-domain labels: browsers skip the sixth (WAN007).
    static let tooMany =
        #"{"origins": ["https://a.com", "https://b.co.uk", "https://c.github.io", "https://d.de", "https://e.fr", "#
        + #""https://f.com"]}"#

    let folder: TemporaryFolder
    let server: RunningServer
    var base: String { "http://127.0.0.1:\(server.port)" }

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("sites/example.com/webauthn", Self.webauthn)
        try folder.write("sites/example.com/passkey-endpoints", Self.endpoints)
        try folder.write(
            "sites/example.com/apple-app-site-association", #"{"webcredentials": {"apps": ["ABCDE12345.com.example"]}}"#
        )
        server = try RunningServer(in: folder.url, ["--sites", "sites", "--access-log", "off"])
    }

    deinit {
        _ = server.stop()
    }

    func fetch(_ path: String, _ options: [String] = []) throws -> Curl.Response {
        try Curl.request(base + path, ["-H", "Host: example.com"] + options)
    }

    @Test("both files: 200 with the exact bytes, JSON, ETag, Last-Modified, nosniff, gzip, 304, no redirect")
    func served() throws {
        for (path, body) in [
            ("/.well-known/webauthn", Self.webauthn), ("/.well-known/passkey-endpoints", Self.endpoints),
            ("/.well-known/webauthn?x=1", Self.webauthn),
        ] {
            let response = try fetch(path)
            #expect(response.status == 200)
            #expect(response.body == Data(body.utf8))
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.headers["content-length"] == String(body.utf8.count))
            #expect(response.headers["x-content-type-options"] == "nosniff")
            #expect(response.headers["last-modified"]?.hasSuffix(" GMT") == true)
            #expect(response.headers["location"] == nil)
            let etag = try #require(response.headers["etag"])
            #expect(try fetch(path, ["-H", "If-None-Match: \(etag)"]).status == 304)
        }
        let compressed = try fetch("/.well-known/webauthn", ["-H", "Accept-Encoding: gzip"])
        #expect(compressed.headers["content-encoding"] == "gzip")
        #expect(compressed.headers["vary"] == "Accept-Encoding")
        #expect(compressed.body.count < Self.webauthn.utf8.count)
        // A site without the files answers 404 for them, and a near path is no file.
        #expect(try fetch("/.well-known/webauthn/").status == 404)
        #expect(try fetch("/.well-known/passkey-endpoint").status == 404)
        #expect(try Curl.request(base + "/.well-known/webauthn", ["-H", "Host: other.test"]).status == 404)
    }

    @Test("a broken file is refused on reload and the last good one keeps serving; a good one is taken")
    func reload() throws {
        let file = folder.url.appendingPathComponent("sites/example.com/webauthn")
        try Data(Self.tooMany.utf8).write(to: file)
        server.signal(SIGHUP)
        let admin = try #require(server.adminPort)
        #expect(
            try eventually(5) {
                String(decoding: try Curl.request("http://127.0.0.1:\(admin)/").body, as: UTF8.self).contains("WAN007")
            })
        #expect(try fetch("/.well-known/webauthn").body == Data(Self.webauthn.utf8))
        let sites = String(decoding: try Curl.request("http://127.0.0.1:\(admin)/sites.json").body, as: UTF8.self)
        #expect(sites.contains("\"webauthn\"") && sites.contains("\"passkey-endpoints\""), "\(sites)")
        try Data(Self.second.utf8).write(to: file)
        #expect(try eventually(5) { try fetch("/.well-known/webauthn").body == Data(Self.second.utf8) })
        let metrics = String(decoding: try Curl.request("http://127.0.0.1:\(admin)/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"path="/.well-known/webauthn""#), "\(metrics)")
        // Deleted, a passkey file serves its last copy for the deleted-file grace (60 s by default).
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("sites/example.com/passkey-endpoints"))
        #expect(
            try eventually(5) {
                String(decoding: try Curl.request("http://127.0.0.1:\(admin)/sites.json").body, as: UTF8.self)
                    .contains(#""servedUntil""#)
            })
        #expect(try fetch("/.well-known/passkey-endpoints").body == Data(Self.endpoints.utf8))
    }

    @Test("a broken passkey file stops start-up (exit 1), naming file, line, column and code")
    func refusedAtStartup() throws {
        let broken = try TemporaryFolder()
        try broken.write("sites/example.com/webauthn", Self.tooMany)
        try broken.write("sites/example.org/passkey-endpoints", #"{"enroll": "http://example.org/new"}"#)
        let output = try BinaryRunner.run(
            ["serve", "--sites", "sites", "--http", "127.0.0.1:0", "--admin", "off"], in: broken.url)
        #expect(output.status == 1)
        #expect(output.stderr.contains("not starting"), "\(output.stderr)")
        #expect(output.stderr.contains("webauthn:1:") && output.stderr.contains("WAN007"), "\(output.stderr)")
        #expect(output.stderr.contains("passkey-endpoints:1:") && output.stderr.contains("WAN011"), "\(output.stderr)")
    }
}
