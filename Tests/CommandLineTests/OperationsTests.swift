import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// Reload, the admin listener, metrics and the status page, on the real binary.
@Suite("operations", .serialized)
final class OperationsTests {
    static let first =
        SiteFixtures.oneAppAASA(path: "/buy/*")
    static let second =
        SiteFixtures.oneAppAASA(path: "/sell/*")

    let folder: TemporaryFolder
    let server: RunningServer
    let adminPort: Int
    var file: URL { folder.url.appendingPathComponent("sites/example.com/apple-app-site-association") }

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.first)
        try folder.write(
            "sites/other.com/apple-app-site-association", #"{"webcredentials": {"apps": ["ABCDE12345.com.other.app"]}}"#
        )
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("sites/www.example.com").path, withDestinationPath: "example.com")
        server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "2"])
        adminPort = try #require(server.adminPort)
    }

    deinit {
        _ = server.stop()
    }

    func fetch(_ host: String = "example.com") throws -> Curl.Response {
        try Curl.request(
            "http://127.0.0.1:\(server.port)/.well-known/apple-app-site-association", ["-H", "Host: \(host)"])
    }

    func admin(_ path: String) throws -> Curl.Response {
        try Curl.request("http://127.0.0.1:\(adminPort)\(path)")
    }

    /// Reloads done so far with `result` (any result when nil): `aasa_reloads_total` of /metrics.
    func reloads(_ result: String? = nil) throws -> Int {
        let prefix = "aasa_reloads_total{" + (result.map { "result=\"\($0)\"}" } ?? "")
        let metrics = String(decoding: try admin("/metrics").body, as: UTF8.self)
        return metrics.split(separator: "\n").filter { $0.hasPrefix(prefix) }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0) { $0 + Int($1) }
    }

    /// Writes `text` as an editor that saves in place would.
    func edit(_ text: String) throws {
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// Waits up to `seconds` for `condition`.
    @Test("a valid edit is served within 2 seconds without a signal; an invalid one keeps the old bytes and shows")
    func reloadOnChange() throws {
        try edit(Self.second)
        #expect(try eventually(2) { try fetch().body == Data(Self.second.utf8) })
        let failed = try reloads("failed")
        try edit(SiteFixtures.truncatedAASA)
        // The watcher's reload of the broken file is done (counted as failed) and kept the old bytes.
        #expect(try eventually(5) { try reloads("failed") > failed })
        #expect(try fetch().body == Data(Self.second.utf8))
        #expect(try fetch("www.example.com").body == Data(Self.second.utf8))
        let metrics = String(decoding: try admin("/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"aasa_site_files{file="apple-app-site-association",valid="false"} 1"#))
        // Without --metrics-per-site on, the one per-site series is the invalid file's own, the
        // site the alert names (AASASiteFilesInvalid).
        let perSite = metrics.split(separator: "\n").filter { $0.contains("site=") && !$0.hasPrefix("#") }
        #expect(
            perSite == [#"aasa_site_invalid_files{site="example.com",file="apple-app-site-association"} 1.0"#],
            "\(perSite)")
        #expect(metrics.contains(#"aasa_reloads_total{result="failed"} "#))
        let page = String(decoding: try admin("/").body, as: UTF8.self)
        #expect(page.contains("invalid"))
        #expect(page.contains("JSON013"))
        // An atomic rename (how most deploy tools write) is seen as well.
        let replacement = folder.url.appendingPathComponent("sites/example.com/.new")
        try Data(Self.first.utf8).write(to: replacement)
        #expect(rename(replacement.path, file.path) == 0)
        #expect(try eventually(2) { try fetch().body == Data(Self.first.utf8) })
    }

    @Test("a reload where one site takes new files and another keeps its last good ones is partial, and says which")
    func partialReload() throws {
        let other = folder.url.appendingPathComponent("sites/other.com/apple-app-site-association")
        let newOther = #"{"webcredentials": {"apps": ["ABCDE12345.com.other.next"]}}"#
        // Both written within the watcher's 300 ms debounce, so one reload sees both (a SIGHUP
        // here would add a second reload that changes nothing and is recorded as failed).
        try edit(SiteFixtures.truncatedAASA)
        try Data(newOther.utf8).write(to: other)
        #expect(
            try eventually(3) {
                try Curl.request(
                    "http://127.0.0.1:\(server.port)/.well-known/apple-app-site-association", ["-H", "Host: other.com"]
                ).body
                    == Data(newOther.utf8)
            })
        #expect(try fetch().body == Data(Self.first.utf8))
        #expect(
            eventually(3) {
                server.errors.contains(
                    "reload partly applied; changed: other.com; kept their last good files: example.com")
            })
        let metrics = String(decoding: try admin("/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"aasa_reloads_total{result="partial"} "#))
        #expect(!metrics.contains(#"aasa_reloads_total{result="partial"} 0"#))
        let page = String(decoding: try admin("/").body, as: UTF8.self)
        #expect(
            page.contains(
                "The last reload was partly applied. Changed: other.com. Kept their last good files: example.com."))
    }

    @Test("SIGHUP reloads too; 50 reloads, one in five invalid, lose no request")
    func reloadUnderLoad() throws {
        let stop = LockedFlag()
        let failures = LockedCounter()
        let served = LockedCounter()
        let port = server.port
        let load = Thread {
            guard var keepAlive = try? RawClient(port: port, receiveTimeout: 5) else {
                failures.increment()
                return
            }
            while !stop.isSet {
                keepAlive.send("GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n")
                guard let response = RawClient.readResponse(keepAlive), response.hasPrefix("HTTP/1.1 200 OK"),
                    response.contains("applinks")
                else {
                    failures.increment()
                    guard let fresh = try? RawClient(port: port, receiveTimeout: 5) else { break }
                    keepAlive = fresh
                    continue
                }
                served.increment()
            }
        }
        load.start()
        for index in 0..<50 {
            let before = (reloads: try reloads(), served: served.value)
            try edit(index % 5 == 4 ? "{ not json" : (index % 2 == 0 ? Self.second : Self.first))
            server.signal(SIGHUP)
            // Each reload is done, and requests were served meanwhile, before the next edit.
            #expect(try eventually(5) { try reloads() > before.reloads && served.value > before.served })
        }
        try edit(Self.first)
        server.signal(SIGHUP)
        #expect(try eventually(5) { try fetch().body == Data(Self.first.utf8) })
        stop.set()
        #expect(eventually(10) { !load.isExecuting })
        #expect(failures.value == 0)
        #expect(served.value > 100)
        #expect(try eventually(2) { try fetch().body == Data(Self.first.utf8) })
    }

    @Test("/healthz, /readyz, and 404 for anything else")
    func health() throws {
        #expect(try admin("/healthz").status == 200)
        #expect(try admin("/readyz").status == 200)
        #expect(try admin("/nothing").status == 404)
        #expect(try Curl.request("http://127.0.0.1:\(adminPort)/healthz", ["-X", "POST"]).status == 405)
    }

    @Test("the admin listener runs on the loop machinery: a stalled client blocks no one, keep-alive, limits")
    func adminOnTheLoop() throws {
        // A client that sends half a head and stops: the old one-at-a-time admin thread
        // waited on it; the admin loop serves others meanwhile.
        let stalled = try RawClient(port: adminPort)
        stalled.send("GET /healthz HTTP/1.1\r\nHost: x")
        let started = Date()
        #expect(try admin("/healthz").status == 200)
        #expect(Date().timeIntervalSince(started) < 1.5)
        // Two requests on one connection, answered in order, with the server's own framing.
        let reply = try RawClient.exchange(
            port: adminPort,
            "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\nGET /nothing HTTP/1.1\r\nHost: localhost\r\n"
                + "Connection: close\r\n\r\n")
        #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(reply.contains("\r\n\r\nok\nHTTP/1.1 404 Not Found\r\n"))
        #expect(reply.contains("Cache-Control: no-store"))
        // The public parser's limits apply: a head over the limit gets 431, not a hang.
        let huge = try RawClient.exchange(
            port: adminPort, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 70_000))\r\n\r\n")
        #expect(huge.hasPrefix("HTTP/1.1 431 "))
    }

    @Test("/metrics parses with the Prometheus reference parser and counts requests")
    func metrics() throws {
        _ = try fetch()
        _ = try Curl.request("http://127.0.0.1:\(server.port)/nope", ["-H", "Host: example.com"])
        // The loops fold their counts into the shared totals once per iteration.
        var response = try admin("/metrics")
        _ = try eventually(3) {
            response = try admin("/metrics")
            return String(decoding: response.body, as: UTF8.self).contains(#"status="404""#)
        }
        #expect(response.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(
            text.contains(
                #"aasa_requests_total{path="/.well-known/apple-app-site-association",status="200"}"#)
        )
        #expect(text.contains(#"path="other",status="404""#))
        #expect(text.contains("aasa_process_resident_memory_bytes"))
        #expect(text.contains("aasa_open_connections"))
        let parsed = try PythonPrometheus.parse(text)
        #expect(parsed.contains("aasa_requests"))
        #expect(parsed.contains("aasa_site_files"))
        // Two site folders and one alias (docs/serving.md, "Counting sites"); it said 3 names before.
        #expect(text.contains("\naasa_sites 2.0\n") && text.contains("\naasa_site_aliases 1.0\n"))
        // One writer: each family's TYPE once, counters ending in _total, and every family the
        // alert rules and dashboards name still there (docker/prometheus-rules.yml).
        let types = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ") }
        let names = types.map { String($0[2]) }
        #expect(Set(names).count == names.count && names.count == text.components(separatedBy: "# HELP ").count - 1)
        #expect(types.allSatisfy { $0[3] != "counter" || $0[2].hasSuffix("_total") }, "\(types)")
        let expected = [
            "aasa_requests_total", "aasa_response_body_bytes_total", "aasa_responses_encoded_total",
            "aasa_tls_handshakes_total", "aasa_access_log_dropped_total", "aasa_fallback_responses_total",
            "aasa_open_connections", "aasa_reloads_total", "aasa_last_reload_timestamp_seconds",
            "aasa_last_reload_success_timestamp_seconds", "aasa_site_files", "aasa_sites", "aasa_site_aliases",
            "aasa_certificate_expiry_timestamp_seconds", "aasa_certificate_lifetime_seconds",
            "aasa_apple_fetches_total", "aasa_apple_fetches_unknown_host_total",
            "aasa_process_resident_memory_bytes", "aasa_process_start_time_seconds",
        ]
        #expect(Set(expected).subtracting(names).isEmpty, "\(names)")
        #expect(text.contains(#"aasa_responses_encoded_total{encoding="gzip"} "#))
        #expect(text.contains(#"aasa_reloads_total{result="ok"} "#))
    }

    @Test("--metrics-per-site on: per-site series for the 1,000 busiest sites and every invalid one, no more")
    func perSiteMetrics() throws {
        let many = try TemporaryFolder()
        for index in 0..<1_099 {
            try many.write("sites/s\(index).example/apple-app-site-association", Self.first)
        }
        try many.write("sites/zz.example/apple-app-site-association", Self.first)
        let busy = try RunningServer(in: many.url, ["--sites", "sites", "--metrics-per-site", "on"])
        defer { _ = busy.stop() }
        let port = try #require(busy.adminPort)
        // zz.example is quiet (no requests) and last by name, and becomes invalid: it must
        // still be listed, beside the 1,000 busiest.
        try many.write("sites/zz.example/apple-app-site-association", "{ broken")
        busy.signal(SIGHUP)
        for host in ["s1.example", "s1.example", "s2.example"] {
            _ = try Curl.request(
                "http://127.0.0.1:\(busy.port)/.well-known/apple-app-site-association", ["-H", "Host: \(host)"])
        }
        var text = ""
        // Generous: the reload of 1,100 sites takes seconds under the sanitizers.
        _ = try eventually(60) {
            text = String(decoding: try Curl.request("http://127.0.0.1:\(port)/metrics").body, as: UTF8.self)
            return text.contains(#"aasa_site_file_valid{site="zz.example",file="apple-app-site-association"} 0"#)
                && text.contains(#"aasa_site_requests_total{site="s1.example""#)
        }
        let validLines = text.split(separator: "\n").filter { $0.hasPrefix("aasa_site_file_valid{") }
        #expect(validLines.count == 1_001)
        #expect(text.contains(#"aasa_site_file_valid{site="zz.example",file="apple-app-site-association"} 0"#))
        #expect(
            text.contains(
                #"aasa_site_requests_total{site="s1.example",path="/.well-known/apple-app-site-association",status="200"} 2"#
            ))
        #expect(text.contains(#"aasa_site_files{file="apple-app-site-association",valid="false"} 1"#))
        _ = try PythonPrometheus.parse(text)
    }

    @Test("the status page lists every site and alias, and its URL tester answers by Apple's rules")
    func statusPage() throws {
        let page = String(decoding: try admin("/").body, as: UTF8.self)
        #expect(page.contains("example.com"))
        #expect(page.contains("www.example.com"))
        #expect(page.contains("other.com"))
        let tested = String(
            decoding: try admin(
                "/?url=" + "https://example.com/buy/42".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            ).body, as: UTF8.self)
        #expect(tested.contains("ABCDE12345.com.example.app"))
        #expect(tested.contains(">match<"))
    }

    @Test("the status page in a real browser: headless Chromium renders every site and a tester result")
    func statusPageInChromium() throws {
        let url = "http://127.0.0.1:\(adminPort)/?url=https%3A%2F%2Fexample.com%2Fbuy%2F42"
        let dom = try Chromium.run(["--dump-dom", url])
        #expect(dom.contains("<div id=\"sites\">"))
        for site in ["example.com", "www.example.com", "other.com"] { #expect(dom.contains(site), "\(site)") }
        #expect(dom.contains("<td class=\"ok\">match</td>"))
        let screenshot = BinaryRunner.binary.deletingLastPathComponent().appendingPathComponent("status-page.png").path
        _ = try Chromium.run(["--screenshot=\(screenshot)", "--window-size=1280,900", url])
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }
}

@Suite("Kubernetes ConfigMap layout")
struct ConfigMapTests {
    /// A ConfigMap volume: `..<timestamp>/` holds the files, `..data` links to it, and each
    /// site folder links into `..data`; an update writes a new timestamp folder and renames a
    /// new `..data` link over the old one.
    @Test("sites mounted from a ConfigMap load, and a ConfigMap update is served without a signal")
    func configMapSwap() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "sites/..2026_11_22_10_00_00.000/example.com/apple-app-site-association", OperationsTests.first)
        let sites = folder.url.appendingPathComponent("sites")
        try FileManager.default.createSymbolicLink(
            atPath: sites.appendingPathComponent("..data").path, withDestinationPath: "..2026_11_22_10_00_00.000")
        try FileManager.default.createSymbolicLink(
            atPath: sites.appendingPathComponent("example.com").path, withDestinationPath: "..data/example.com")
        let server = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        let url = "http://127.0.0.1:\(server.port)/apple-app-site-association"
        #expect(try Curl.request(url, ["-H", "Host: example.com"]).body == Data(OperationsTests.first.utf8))
        try folder.write(
            "sites/..2026_11_22_10_05_00.000/example.com/apple-app-site-association", OperationsTests.second)
        try FileManager.default.createSymbolicLink(
            atPath: sites.appendingPathComponent("..data_tmp").path, withDestinationPath: "..2026_11_22_10_05_00.000")
        #expect(
            rename(sites.appendingPathComponent("..data_tmp").path, sites.appendingPathComponent("..data").path) == 0)
        let deadline = Date().addingTimeInterval(3)
        var body = Data()
        while Date() < deadline {
            body = try Curl.request(url, ["-H", "Host: example.com"]).body
            if body == Data(OperationsTests.second.utf8) { break }
            usleep(100_000)
        }
        #expect(body == Data(OperationsTests.second.utf8))
    }
}

@Suite("admin listener address")
struct AdminAddressTests {
    @Test("the admin listener refuses a non-loopback address unless forced")
    func refusesPublic() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", OperationsTests.first)
        let refused = try BinaryRunner.run(
            ["serve", "--sites", "sites", "--http", "127.0.0.1:0", "--admin", "0.0.0.0:0"], in: folder.url)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--admin-public"))
        let token = try folder.write("admin-token", "0123456789abcdef\n")
        #expect(chmod(token, 0o600) == 0)
        let forced = try RunningServer(
            in: folder.url, ["--sites", "sites", "--admin", "0.0.0.0:0", "--admin-public", "--admin-token-file", token])
        #expect(forced.stop() == 0)
    }
}

/// A flag and a counter shared with a load thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var isSet: Bool { lock.withLock { flag } }
    func set() { lock.withLock { flag = true } }
}

final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

/// The prometheus_client Python package's text parser, the reference implementation.
enum PythonPrometheus {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The metric family names it parsed.
    static func parse(_ text: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sys\nfrom prometheus_client.parser import text_string_to_metric_families\nfor family in "
                + "text_string_to_metric_families(sys.stdin.read()):\n    print(family.name, len(family.samples))",
        ]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let parsed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "prometheus_client could not parse /metrics: "
                    + String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
        return parsed
    }
}
