import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// A stand-in for Apple's CDN (`Tests/Peers/fake-apple-cdn.py`): HTTPS on loopback under a
/// test CA, answering per domain as its plan file says, logging each request to a file.
final class FakeCDN {
    let folder: TemporaryFolder
    let certificates: TestCertificates
    let port: Int
    let planFile: String
    let logFile: String
    private let process = Process()

    init() throws {
        folder = try TemporaryFolder()
        certificates = try TestCertificates(in: folder)
        try certificates.issue("cdn", names: ["127.0.0.1"])
        planFile = try folder.write("plan.json", "{}")
        logFile = try folder.write("requests.log", "")
        let portFile = try folder.write("port", "")
        let certificate = certificates.directory.appendingPathComponent("cdn")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", BinaryRunner.packageRoot.appendingPathComponent("Tests/Peers/fake-apple-cdn.py").path,
            certificate.appendingPathComponent("fullchain.pem").path,
            certificate.appendingPathComponent("privkey.pem").path, planFile, logFile,
        ]
        // Files, not pipes: nothing stays registered with libdispatch once it is killed.
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: portFile))
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try output.close()
        var found: Int?
        _ = eventually(10) {
            found = Int(
                ((try? String(contentsOfFile: portFile, encoding: .utf8)) ?? "").trimmingCharacters(
                    in: .whitespacesAndNewlines))
            return found != nil
        }
        guard let found else { throw RunningServer.StartFailure(description: "the fake CDN did not start") }
        port = found
    }

    var url: String { "https://127.0.0.1:\(port)/a/v1/" }

    func plan(_ entries: [String: [String: String]]) throws {
        let data = try JSONSerialization.data(withJSONObject: entries)
        try data.write(to: URL(fileURLWithPath: planFile + ".new"))
        rename(planFile + ".new", planFile)
    }

    /// Every request so far, "GET PATH USER-AGENT".
    var requests: [String] {
        ((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func requests(for domain: String) -> Int {
        requests.count { $0.hasPrefix("GET /a/v1/\(domain) ") }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// `serve --cdn-watch on` against the fake CDN: every state, history, the rate, the bound on
/// a huge answer, Apple's fetcher seen passively, and what /sites.json, the status page and
/// /metrics (checked by promtool) show (docs/watches.md, "Apple's CDN").
@Suite("CDN watch", .serialized)
struct CDNWatchTests {
    static func file(_ app: String) -> String {
        SiteFixtures.oneAppAASA(app, path: "/\(app)/*")
    }

    /// The same meaning written differently: other spacing, key order and escapes.
    static func reencoded(_ app: String) -> String {
        #"{ "applinks" : { "details" : [ { "components" : [ { "/" : "\/\#(app)\/*" } ], "#
            + #""appIDs" : [ "ABCDE12345.com.example.\#(app)" ] } ] } }"#
    }

    let folder: TemporaryFolder
    let cdn: FakeCDN

    init() throws {
        folder = try TemporaryFolder()
        cdn = try FakeCDN()
        for (site, app) in [
            ("in-sync.example.com", "shop"), ("stale.example.com", "old"), ("differs.example.com", "ours"),
            ("failing.example.com", "fail"), ("silent.example.com", "silent"), ("huge.example.com", "huge"),
            ("*.wild.example.com", "wild"),
        ] {
            try folder.write("sites/\(site)/apple-app-site-association", Self.file(app))
        }
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("sites/www.in-sync.example.com").path,
            withDestinationPath: "in-sync.example.com")
        let copies = try TemporaryFolder()
        let shop = try copies.write("shop.json", Self.reencoded("shop"))
        let old = try copies.write("old.json", Self.reencoded("old"))
        let theirs = try copies.write("theirs.json", Self.file("theirs"))
        _ = copies
        try cdn.plan([
            "in-sync.example.com": ["mode": "file", "path": shop],
            "www.in-sync.example.com": ["mode": "file", "path": shop],
            "stale.example.com": ["mode": "file", "path": old],
            "differs.example.com": ["mode": "file", "path": theirs],
            "failing.example.com": [
                "mode": "failing", "reason": "SWCERR00301 Timeout",
                "details":
                    #"{"swcerr":"SWCERR00301","url":"https://failing.example.com/.well-known/"#
                    + #"apple-app-site-association"}"#,
            ],
            "silent.example.com": ["mode": "silent"],
            "huge.example.com": ["mode": "huge"],
        ])
        try folder.write("config.json", #"{"timeouts": {"cdnFetch": 1}}"#)
        self.copies = copies
    }

    let copies: TemporaryFolder

    func serve(watch: Bool) throws -> RunningServer {
        try RunningServer(
            in: folder.url,
            [
                "--config", "config.json", "--sites", "sites", "--access-log", "off", "--cdn-watch-url", cdn.url,
                "--cdn-watch-ca", cdn.certificates.caFile, "--cdn-watch-interval", "1", "--cdn-watch-rate", "600",
            ] + (watch ? ["--cdn-watch", "on"] : []))
    }

    func sites(_ server: RunningServer, _ query: String = "") throws -> [String: [String: Any]] {
        try server.watchLines("cdn", query)
    }

    func state(_ server: RunningServer, _ site: String) -> String? {
        (try? sites(server))?[site]?["state"] as? String
    }

    func admin(_ server: RunningServer, _ path: String) throws -> String {
        try server.adminText(path)
    }

    @Test("every state, from the CDN's answers; history makes an old copy stale; within the rate")
    func states() throws {
        let started = Date()
        let server = try serve(watch: true)
        let expected = [
            "in-sync.example.com": "in_sync", "stale.example.com": "in_sync", "differs.example.com": "differs",
            "failing.example.com": "failing", "silent.example.com": "error", "huge.example.com": "error",
        ]
        #expect(
            eventually(30) { expected.allSatisfy { state(server, $0.key) == $0.value } },
            "\(String(describing: try? sites(server)))")
        let all = try sites(server)
        let failing = try #require(all["failing.example.com"])
        #expect(failing["reason"] as? String == "SWCERR00301 Timeout")
        #expect((failing["details"] as? String)?.contains(#""swcerr":"SWCERR00301""#) == true)
        #expect((all["huge.example.com"]?["reason"] as? String)?.contains("256 KiB") == true)
        #expect((all["silent.example.com"]?["reason"] as? String)?.contains("within 1 s") == true)
        // The 32 MiB answer was read only up to the bound: the server's peak memory stays low.
        let status = try String(
            contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.flatMap {
            Int($0.split(separator: " ", omittingEmptySubsequences: true)[1])
        }
        if !BinaryRunner.underSanitizer {
            #expect((peak ?? .max) < 64 * 1024, "VmHWM \(String(describing: peak)) kB")
        }
        #expect(all["differs.example.com"]?["outOfSyncSince"] is String)
        #expect(all["in-sync.example.com"]?["outOfSyncSince"] is NSNull)
        #expect(all["*.wild.example.com"]?["state"] as? String == "unchecked")

        // The site's file changes; the CDN still has the old one: stale, since the change.
        let changed = Int(Date().timeIntervalSince1970)
        try folder.write("sites/stale.example.com/apple-app-site-association.new", Self.file("new"))
        rename(
            folder.url.appendingPathComponent("sites/stale.example.com/apple-app-site-association.new").path,
            folder.url.appendingPathComponent("sites/stale.example.com/apple-app-site-association").path)
        #expect(eventually(20) { state(server, "stale.example.com") == "stale" }, "\(server.errors)")
        let since = try #require(try sites(server)["stale.example.com"]?["outOfSyncSince"] as? String)
        #expect(since >= Self.iso8601(changed - 2) && since <= Self.iso8601(changed + 5))
        #expect(server.errors.contains("cdn: Apple's CDN has an earlier version domain=stale.example.com from=in_sync"))
        #expect(try admin(server, "/metrics").contains("aasa_cdn_out_of_sync_seconds{site=\"stale.example.com\"}"))
        // The status page's filter lists only the sites not in sync.
        let filtered = try admin(server, "/?cdn=out-of-sync")
        #expect(filtered.contains("stale.example.com") && !filtered.contains(">in-sync.example.com<"))
        #expect(Set(try sites(server, "?cdn=out-of-sync").keys).isDisjoint(with: ["in-sync.example.com"]))
        // The CDN catches up.
        let new = try copies.write("new.json", Self.reencoded("new"))
        var plan = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cdn.planFile)))
                as? [String: [String: String]])
        plan["stale.example.com"] = ["mode": "file", "path": new]
        try cdn.plan(plan)
        #expect(eventually(20) { state(server, "stale.example.com") == "in_sync" })

        let metrics = try admin(server, "/metrics")
        for line in [
            "aasa_cdn_sites{state=\"in_sync\"} 3", "aasa_cdn_sites{state=\"differs\"} 1",
            "aasa_cdn_sites{state=\"failing\"} 1", "aasa_cdn_sites{state=\"error\"} 2",
            "aasa_cdn_sites{state=\"stale\"} 0", "aasa_cdn_sites{state=\"unchecked\"} 0",
        ] {
            #expect(metrics.contains(line), "\(line)")
        }
        let metricsFile = try folder.write("metrics.txt", metrics)
        let promtool = try BinaryRunner.run(
            ["-c", "promtool check metrics < '\(metricsFile)'"], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(promtool.status == 0 && promtool.stdout.isEmpty && promtool.stderr.isEmpty, "\(promtool)")

        // Every domain had its turn while the silent one hung; none for wildcards; within the rate.
        let elapsed = Date().timeIntervalSince(started)
        for domain in expected.keys { #expect(cdn.requests(for: domain) >= 2, "\(domain)") }
        #expect(cdn.requests(for: "www.in-sync.example.com") >= 1)
        #expect(!cdn.requests.contains { $0.contains("wild.example.com") })
        #expect(Double(cdn.requests.count) <= elapsed * 10 + 2, "\(cdn.requests.count) in \(elapsed) s")
        #expect(cdn.requests.allSatisfy { $0.hasSuffix("aasa-server/\(Self.version) (cdn-watch)") })
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }

    @Test("with the watch off nothing is fetched, and Apple's fetcher is still recorded")
    func passive() throws {
        let server = try serve(watch: false)
        func get(_ host: String, agent: String) throws -> Curl.Response {
            try Curl.request(
                "http://127.0.0.1:\(server.port)/.well-known/apple-app-site-association",
                ["-H", "Host: \(host)", "-A", agent])
        }
        #expect(try get("in-sync.example.com", agent: "AASA-Bot/1.0.0").status == 200)
        #expect(try get("differs.example.com", agent: "Mozilla/5.0 (iPhone)").status == 200)
        #expect(try get("pr-3.wild.example.com", agent: "AASA-Bot/1.0.0").status == 200)
        #expect(try get("nowhere.example.org", agent: "AASA-Bot/1.0.0").status == 404)
        let all = try sites(server)
        let fetch = try #require(all["in-sync.example.com"]?["lastAppleFetch"] as? [String: Any])
        #expect(fetch["host"] as? String == "in-sync.example.com")
        #expect(fetch["status"] as? Int == 200)
        #expect((fetch["etag"] as? String)?.hasPrefix("\"") == true)
        #expect((fetch["at"] as? String)?.hasSuffix("Z") == true)
        #expect(all["differs.example.com"]?["lastAppleFetch"] is NSNull)
        #expect(all["*.wild.example.com"]?["appleFetchedHosts"] as? [String] == ["pr-3.wild.example.com"])
        let metrics = try admin(server, "/metrics")
        #expect(metrics.contains("aasa_apple_fetches_total{status=\"200\"} 2"))
        #expect(metrics.contains("aasa_apple_fetches_total{status=\"404\"} 1"))
        #expect(metrics.contains("aasa_apple_fetches_unknown_host_total 1"))
        #expect(!metrics.contains("aasa_cdn_sites"))
        #expect(eventually(5) { server.errors.contains("host=nowhere.example.org") })
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
        #expect(cdn.requests.isEmpty, "\(cdn.requests)")
    }

    /// `aasa-server --version` prints "aasa-server 0.3.0".
    static var version: String {
        let line = (try? BinaryRunner.run(["--version"]).stdout) ?? ""
        return String(line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").last ?? "?")
    }

    static func iso8601(_ seconds: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
    }
}
