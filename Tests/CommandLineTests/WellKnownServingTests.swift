import Foundation
import TestSupport
import Testing

/// The well-known files served by the real binary and fetched with curl over HTTP and HTTPS, as
/// Apple's check, a security researcher and a password manager fetch them: status, headers,
/// exact bytes, no redirect, 304; through reload and the deleted-file grace; `/.well-known/`
/// never a page whatever `fallback.json` says; a `webauthn` edit seen at once by a client that
/// fetched it before.
@Suite("well-known files served", .serialized)
final class WellKnownServingTests {
    static let applePay = String(repeating: "7B2270737049644422A2237304446", count: 60) + "\n"
    static let securityTxt = "Contact: mailto:security@example.test\nExpires: 2099-01-01T00:00:00Z\n"
    static let webauthn = #"{"origins": ["https://example.test", "https://example.de"]}"#
    static let edited = #"{"origins": ["https://example.test"]}"#

    let folder: TemporaryFolder
    let certificates: TestCertificates
    let server: RunningServer
    let securePort: Int

    init() throws {
        folder = try TemporaryFolder()
        certificates = try TestCertificates(in: folder)
        try certificates.issue("example.test", names: ["example.test", "shop.test"])
        let site = "sites/example.test/"
        try folder.write(site + "apple-app-site-association", #"{"webcredentials": {"apps": ["ABCDE12345.com.ex"]}}"#)
        try folder.write(site + "apple-developer-merchantid-domain-association", Self.applePay)
        try folder.write(site + "security.txt", Self.securityTxt)
        try folder.write(site + "webauthn", Self.webauthn)
        try folder.write(site + "well-known/gpc.json", #"{"gpc": true, "lastUpdate": "2026-01-01"}"#)
        try folder.write(site + "fallback.json", #"{"web": "https://www.example.test{path}{query}"}"#)
        try folder.write(
            site + "site.json",
            #"{"changePassword": "https://example.test/account/password", "#
                + #""cacheControl": {"well-known": "max-age=300"}}"#)
        try folder.write("sites/shop.test/apple-developer-merchantid-domain-association", Self.applePay)
        server = try RunningServer(
            in: folder.url,
            ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--access-log", "off"])
        let text = server.errors
        let range = try #require(text.range(of: "info listening on https://127.0.0.1:"))
        securePort = try #require(Int(text[range.upperBound...].prefix { $0.isNumber }))
    }

    deinit {
        _ = server.stop()
    }

    /// `path` of `host` over HTTP (`secure` false) or HTTPS (verified against the test CA).
    func fetch(_ path: String, host: String = "example.test", secure: Bool, _ options: [String] = []) throws
        -> Curl.Response
    {
        if secure {
            return try Curl.request(
                "https://\(host):\(securePort)\(path)",
                ["--cacert", certificates.caFile, "--resolve", "\(host):\(securePort):127.0.0.1"] + options)
        }
        return try Curl.request("http://127.0.0.1:\(server.port)\(path)", ["-H", "Host: \(host)"] + options)
    }

    var admin: String { "http://127.0.0.1:\(server.adminPort ?? 0)" }

    @Test(
        "each kind: 200, its type and cache policy, exact bytes, no redirect, ETag and 304, over HTTP and HTTPS",
        arguments: [false, true])
    func served(secure: Bool) throws {
        for (path, body, type, cache) in [
            (
                "/.well-known/apple-developer-merchantid-domain-association", Self.applePay, "text/plain",
                "max-age=3600"
            ),
            (
                "/.well-known/apple-developer-merchantid-domain-association.txt", Self.applePay, "text/plain",
                "max-age=3600"
            ),
            ("/.well-known/security.txt", Self.securityTxt, "text/plain; charset=utf-8", "max-age=3600"),
            ("/.well-known/webauthn", Self.webauthn, "application/json", "no-cache"),
            ("/.well-known/gpc.json", #"{"gpc": true, "lastUpdate": "2026-01-01"}"#, "application/json", "max-age=300"),
            (
                "/.well-known/apple-app-site-association", #"{"webcredentials": {"apps": ["ABCDE12345.com.ex"]}}"#,
                "application/json", "max-age=3600"
            ),
        ] {
            let response = try fetch(path, secure: secure)
            #expect(response.status == 200, "\(path)")
            #expect(response.body == Data(body.utf8), "\(path)")
            #expect(response.headers["content-type"] == type, "\(path)")
            #expect(response.headers["cache-control"] == cache, "\(path)")
            #expect(response.headers["content-length"] == String(body.utf8.count), "\(path)")
            #expect(response.headers["x-content-type-options"] == "nosniff", "\(path)")
            #expect(response.headers["location"] == nil, "\(path)")
            let etag = try #require(response.headers["etag"])
            let again = try fetch(path, secure: secure, ["-H", "If-None-Match: \(etag)"])
            #expect(again.status == 304 && again.body.isEmpty, "\(path)")
            #expect(try fetch(path, secure: secure, ["-I"]).status == 200, "\(path)")
        }
        // The same Apple Pay file on another merchant domain: the same bytes and entity-tag.
        let shop = try fetch(
            "/.well-known/apple-developer-merchantid-domain-association", host: "shop.test", secure: secure)
        let mine = try fetch("/.well-known/apple-developer-merchantid-domain-association", secure: secure)
        #expect(shop.status == 200 && shop.headers["etag"] == mine.headers["etag"])
        let compressed = try fetch(
            "/.well-known/apple-developer-merchantid-domain-association", secure: secure,
            ["-H", "Accept-Encoding: gzip"])
        #expect(compressed.headers["content-encoding"] == "gzip" && compressed.body.count < Self.applePay.utf8.count)
    }

    @Test(
        "change-password is a 302 to site.json's URL; /.well-known/ is never the fallback's page",
        arguments: [false, true])
    func neverAPage(secure: Bool) throws {
        let change = try fetch("/.well-known/change-password", secure: secure)
        #expect(change.status == 302)
        #expect(change.headers["location"] == "https://example.test/account/password")
        #expect(try fetch("/.well-known/change-password", host: "shop.test", secure: secure).status == 404)
        for path in [
            "/.well-known/resource-that-should-not-exist-whose-status-code-should-not-be-200",
            "/.well-known/", "/.well-known/nodeinfo", "/.well-known/security.txt/", "/.well-known/webauthn.json",
        ] {
            let response = try fetch(path, secure: secure)
            #expect(response.status == 404, "\(path)")
            #expect(response.headers["location"] == nil, "\(path)")
        }
        // Other paths still get the fallback's redirect.
        let page = try fetch("/products/1", secure: secure)
        #expect(page.status == 302 && page.headers["location"] == "https://www.example.test/products/1")
        // A site without the files: 404, never a redirect.
        #expect(try fetch("/.well-known/security.txt", host: "shop.test", secure: secure).status == 404)
    }

    @Test("a webauthn edit reaches a client that fetched it before: no-cache, and its ETag no longer matches")
    func webauthnEdit() throws {
        let before = try fetch("/.well-known/webauthn", secure: true)
        let etag = try #require(before.headers["etag"])
        #expect(before.headers["cache-control"] == "no-cache")
        // What a browser does with no-cache: ask again with the tag it holds (RFC 9111 §5.2.2.4).
        #expect(try fetch("/.well-known/webauthn", secure: true, ["-H", "If-None-Match: \(etag)"]).status == 304)
        try folder.write("sites/example.test/webauthn", Self.edited)
        #expect(
            try eventually(10) {
                let revalidated = try fetch("/.well-known/webauthn", secure: true, ["-H", "If-None-Match: \(etag)"])
                return revalidated.status == 200 && revalidated.body == Data(Self.edited.utf8)
            })
    }

    @Test("a file of the site's well-known/ folder edited in place is served: the folder is watched too")
    func wellKnownFolderEdit() throws {
        let edited = #"{"gpc": false, "lastUpdate": "2026-11-27"}"#
        try folder.write("sites/example.test/well-known/gpc.json", edited)
        #expect(
            try eventually(10) {
                let answer = try fetch("/.well-known/gpc.json", secure: false)
                return answer.status == 200 && answer.body == Data(edited.utf8)
            })
    }

    @Test(
        "through reload and the grace: a broken security.txt keeps its last good copy; a deleted file serves its grace"
    )
    func reloadAndGrace() throws {
        let site = folder.url.appendingPathComponent("sites/example.test")
        try Data("Contact: mailto:s@example.test\nExpires: 2020-01-01T00:00:00Z\n".utf8).write(
            to: site.appendingPathComponent("security.txt"))
        #expect(
            try eventually(10) {
                String(decoding: try Curl.request(admin + "/sites.json").body, as: UTF8.self).contains("SEC004")
            })
        #expect(try fetch("/.well-known/security.txt", secure: false).body == Data(Self.securityTxt.utf8))
        try FileManager.default.removeItem(
            at: site.appendingPathComponent("apple-developer-merchantid-domain-association"))
        try FileManager.default.removeItem(at: site.appendingPathComponent("well-known/gpc.json"))
        #expect(
            try eventually(10) {
                let sites = String(decoding: try Curl.request(admin + "/sites.json").body, as: UTF8.self)
                return sites.contains(#""file":"apple-developer-merchantid-domain-association""#)
                    && sites.contains(#""file":"well-known/gpc.json""#) && sites.contains("servedUntil")
            })
        #expect(try fetch("/.well-known/apple-developer-merchantid-domain-association", secure: true).status == 200)
        #expect(try fetch("/.well-known/gpc.json", secure: true).status == 200)
        // Valid again, the site takes its new security.txt, and a new well-known/ file, found by the watcher.
        try Data(Self.securityTxt.utf8).write(to: site.appendingPathComponent("security.txt"))
        try folder.write("sites/example.test/well-known/nodeinfo", #"{"links": []}"#)
        #expect(try eventually(10) { try fetch("/.well-known/nodeinfo", secure: false).status == 200 })
        let metrics = String(decoding: try Curl.request(admin + "/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"path="/.well-known/security.txt""#), "\(metrics)")
        #expect(metrics.contains(#"aasa_site_files{file="security.txt",valid="true"} 1"#), "\(metrics)")
    }

    @Test("probe checks the new kinds a site serves: status, type, size and content")
    func probe() throws {
        let output = try BinaryRunner.run(
            ["probe", "--cacert", certificates.caFile, "--connect-to", "127.0.0.1:\(securePort)", "--timeout", "3"]
                + ["example.test"])
        for line in [
            "apple-developer-merchantid-domain-association status",
            "apple-developer-merchantid-domain-association content", "security.txt content type",
            "security.txt content", "webauthn content",
        ] {
            #expect(output.stdout.contains(line), "\(line): \(output.stdout)")
        }
        #expect(!output.stdout.contains("security.txt content type: fail"), "\(output.stdout)")
    }

    @Test("validate reads the new kinds of a site folder; diff compares them by their bytes")
    func commands() throws {
        let broken = try TemporaryFolder()
        try broken.write("sites/a.test/security.txt", "Contact: mailto:s@a.test\n")
        try broken.write("sites/a.test/apple-developer-merchantid-domain-association", "")
        try broken.write("sites/a.test/well-known/my-thing", "x")
        let output = try BinaryRunner.run(["validate", "--json", "sites/a.test"], in: broken.url)
        #expect(output.status == 1)
        for code in ["SEC002", "WKN001"] { #expect(output.stdout.contains(code), "\(code): \(output.stdout)") }
        let notes = try BinaryRunner.run(["validate", "--verbose", "sites/a.test/well-known/my-thing"], in: broken.url)
        #expect(notes.status == 0 && notes.stdout.contains("WKN004"), "\(notes.stdout)")
        try broken.write("old/security.txt", Self.securityTxt)
        try broken.write("new/security.txt", Self.securityTxt + "Policy: https://a.test/policy\n")
        let same = try BinaryRunner.run(["diff", "old/security.txt", "old/security.txt"], in: broken.url)
        #expect(same.status == 0, "\(same.stdout)")
        let changed = try BinaryRunner.run(["diff", "old/security.txt", "new/security.txt"], in: broken.url)
        #expect(changed.status == 1, "\(changed.stdout) \(changed.stderr)")
    }

    @Test("security.txt near its end: a warning at start-up, the metric, the status page's countdown")
    func expiring() throws {
        let soon = try TemporaryFolder()
        let expires = Date().addingTimeInterval(10.5 * 86_400)
        let formatter = ISO8601DateFormatter()
        try soon.write(
            "sites/a.test/security.txt", "Contact: mailto:s@a.test\nExpires: \(formatter.string(from: expires))\n")
        try soon.write("sites/b.test/security.txt", Self.securityTxt)
        let other = try RunningServer(in: soon.url, ["--sites", "sites", "--access-log", "off"])
        defer { _ = other.stop() }
        #expect(other.errors.contains("SEC005"), "\(other.errors)")
        let base = "http://127.0.0.1:\(other.adminPort ?? 0)"
        let metrics = String(decoding: try Curl.request(base + "/metrics").body, as: UTF8.self)
        let line = try #require(
            metrics.split(separator: "\n").first { $0.hasPrefix("aasa_security_txt_expiry_seconds{") })
        #expect(line.hasPrefix(#"aasa_security_txt_expiry_seconds{site="a.test"} "#), "\(line)")
        let seconds = try #require(Double(line.split(separator: " ").last ?? ""))
        #expect(seconds > 10 * 86_400 && seconds <= 10.5 * 86_400)
        #expect(!metrics.contains(#"aasa_security_txt_expiry_seconds{site="b.test"}"#))
        let page = String(decoding: try Curl.request(base + "/").body, as: UTF8.self)
        #expect(page.contains("expires in 10 days"), "\(page)")
    }
}
