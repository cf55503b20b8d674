import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// Clients that hold the server's descriptors cost no site its files (docs/security.md,
/// "Descriptors"): the loops leave a reserve for the admin listener and reloads, and a reload
/// that still cannot open a folder keeps every site's last good files, counts as failed and
/// says why (`SITE010`, `SITE001`, naming the call and errno).
@Suite("descriptor starvation")
struct DescriptorStarvationTests {
    /// One request on the keep-alive connection `client`: the response, or nil.
    static func get(_ client: RawClient, _ path: String, host: String = "127.0.0.1") -> String? {
        client.send("GET \(path) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        return RawClient.readResponse(client)
    }

    /// The app the Apple file served on `client` names, or the status line.
    static func app(_ client: RawClient) -> String {
        guard let response = get(client, "/.well-known/apple-app-site-association", host: "example.com") else {
            return "no answer"
        }
        guard response.hasPrefix("HTTP/1.1 200") else { return String(response.prefix { $0 != "\r" }) }
        return ["one", "two", "three"].first { response.contains("com.example.\($0)\"") } ?? response
    }

    /// `aasa_reloads_total{result=…}` read on the admin connection `admin`.
    static func reloads(_ admin: RawClient, _ result: String) -> Int {
        let metrics = get(admin, "/metrics") ?? ""
        let prefix = "aasa_reloads_total{result=\"\(result)\"} "
        guard let line = metrics.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return -1 }
        return Int(Double(line.dropFirst(prefix.count)) ?? -1)
    }

    /// The lowest descriptor number the process has free (proc(5), /proc/PID/fd): with the
    /// limit set to it, every open(2), accept(2) and dup(2) fails with EMFILE.
    static func lowestFree(_ pid: Int32) throws -> Int {
        let open = Set(try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap { Int($0) })
        return (0...).first { !open.contains($0) } ?? 0
    }

    /// Sets the soft descriptor limit of the running server with prlimit(1) (util-linux).
    static func setLimit(_ pid: Int32, _ soft: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        process.arguments = ["--pid", "\(pid)", "--nofile=\(soft):"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test(
        "clients holding descriptors leave /healthz and reloads a reserve; with none left the files keep serving",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "needs prlimit (util-linux)"))
    func starvation() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", SiteFixtures.oneAppAASA("one"))
        // Idle keep-alive connections live long enough for the whole test.
        try folder.write("aasa.json", #"{"timeouts": {"keepAlive": 120}}"#)
        let server = try RunningServer(in: folder.url, ["--config", "aasa.json", "--sites", "sites", "--workers", "1"])
        defer { _ = server.stop() }
        let pid = server.process.processIdentifier
        let adminPort = try #require(server.adminPort)
        // The admin loop's connection, to ask through when no new one is accepted.
        let admin = try RawClient(port: adminPort)
        let open = try Self.lowestFree(pid)

        // Room for 40 more descriptors; a reload reads the new limit.
        try Self.setLimit(pid, open + 40)
        server.signal(SIGHUP)
        #expect(eventually(10) { Self.reloads(admin, "ok") == 1 })
        // 60 clients ask once and stay: at its share the loop closes the longest idle one for the
        // next, so all are answered and the process stays short of the limit.
        var clients: [RawClient] = []
        var answered = 0
        for _ in 0..<60 {
            let client = try RawClient(port: server.port, receiveTimeout: 2)
            client.send("GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n")
            if RawClient.readResponse(client) != nil { answered += 1 }
            clients.append(client)
        }
        #expect(answered == 60, "\(answered) of 60 answered")
        let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
        #expect(held < open + 40, "\(held) descriptors open: the loop stops short of the limit")
        // The newest connection, to ask through once no descriptor is left.
        let site = try RawClient(port: server.port)
        #expect(Self.app(site) == "one")
        // A new admin connection is accepted from the reserve, and a reload still reads files.
        let started = Date()
        let health = try RawClient.exchange(
            port: adminPort, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(health.hasPrefix("HTTP/1.1 200"), "/healthz: \(health)")
        print("/healthz with clients holding the loop's share: \(Date().timeIntervalSince(started)) s")
        try folder.write("sites/example.com/apple-app-site-association", SiteFixtures.oneAppAASA("two"))
        #expect(eventually(10) { Self.app(site) == "two" })

        // Not one descriptor left: the reload after an edit cannot open the site folder.
        try Self.setLimit(pid, try Self.lowestFree(pid))
        try folder.write("sites/example.com/apple-app-site-association", SiteFixtures.oneAppAASA("three"))
        #expect(eventually(10) { Self.reloads(admin, "failed") >= 1 })
        #expect(Self.app(site) == "two")
        let document = Self.get(admin, "/sites.json") ?? ""
        #expect(document.contains(#""state":"kept-last-good""#), "\(document)")
        #expect(document.contains("SITE010") && document.contains("(EMFILE)"), "\(document)")
        let metrics = Self.get(admin, "/metrics") ?? ""
        #expect(metrics.contains(#"aasa_load_problems{code="SITE010",severity="error"}"#), "\(metrics)")
        // SIGHUP cannot list the sites folder: the whole reload fails, every site serves on.
        let failed = Self.reloads(admin, "failed")
        server.signal(SIGHUP)
        #expect(eventually(10) { Self.reloads(admin, "failed") == failed + 1 })
        #expect(Self.app(site) == "two")
        #expect(server.errors.contains("open: Too many open files (EMFILE)"), "\(server.errors)")
        let page = Self.get(admin, "/") ?? ""
        #expect(page.contains("reload-failure") && page.contains("[SITE001]"), "\(page)")
        #expect(server.errors.contains("SITE010"), "\(server.errors)")

        // The clients gone and descriptors back: the next reload reads everything.
        clients.removeAll()
        try Self.setLimit(pid, open + 1000)
        let succeeded = Self.reloads(admin, "ok")
        server.signal(SIGHUP)
        #expect(eventually(10) { Self.reloads(admin, "ok") == succeeded + 1 })
        #expect(Self.app(site) == "three")
        #expect(!(Self.get(admin, "/sites.json") ?? "SITE010").contains("SITE010"))
    }

    @Test(
        "with no descriptor left, a certificates folder that cannot be listed keeps the certificates loaded before",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "needs prlimit (util-linux)"))
    func certificates() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", SiteFixtures.oneAppAASA("one"))
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("example.com", names: ["example.com"])
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--workers", "1"])
        defer { _ = server.stop() }
        let pid = server.process.processIdentifier
        let admin = try RawClient(port: try #require(server.adminPort))
        let served = #"aasa_certificate_lifetime_seconds{certificate="example.com""#
        #expect((Self.get(admin, "/metrics") ?? "").contains(served))
        let open = try Self.lowestFree(pid)

        try Self.setLimit(pid, open)
        try folder.write("certs/example.com/renewed", "")
        #expect(eventually(10) { Self.reloads(admin, "failed") >= 1 })
        let metrics = Self.get(admin, "/metrics") ?? ""
        #expect(metrics.contains(served), "\(metrics)")
        #expect(metrics.contains(#"aasa_load_problems{code="CERT004",severity="error"}"#), "\(metrics)")
        #expect(
            server.errors.contains("cannot list the certificates folder: open: Too many open files (EMFILE)"),
            "\(server.errors)")

        try Self.setLimit(pid, open + 1000)
        let succeeded = Self.reloads(admin, "ok")
        server.signal(SIGHUP)
        #expect(eventually(10) { Self.reloads(admin, "ok") == succeeded + 1 })
        #expect(!(Self.get(admin, "/metrics") ?? "CERT004").contains("CERT004"))
    }
}
