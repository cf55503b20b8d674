import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

@Suite("serve start-up")
struct StartupTests {
    @Test("an invalid site stops start-up with every diagnostic, exit 1")
    func invalidSite() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "sites/good.test/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        try folder.write("sites/bad.test/apple-app-site-association", SiteFixtures.trailingCommaAASA)
        try folder.write(
            "sites/worse.test/apple-app-site-association",
            SiteFixtures.badAppIDAASA)
        let output = try BinaryRunner.run(
            ["serve", "--sites", folder.url.appendingPathComponent("sites").path, "--http", "127.0.0.1:0"],
            in: folder.url)
        #expect(output.status == 1)
        #expect(output.stderr.contains("bad.test/apple-app-site-association:2:29: error: trailing comma"))
        #expect(output.stderr.contains("worse.test/apple-app-site-association:1:"))
        #expect(output.stderr.contains("[AASA201]"))
        #expect(output.stderr.contains("not starting"))
    }

    @Test("a port another process listens on is a start-up error naming the listener, exit 1")
    func portInUse() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "sites/example.com/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        let first = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "2"])
        defer { _ = first.stop() }
        let second = try BinaryRunner.run(
            ["serve", "--sites", "sites", "--http", "127.0.0.1:\(first.port)", "--admin", "off", "--workers", "2"],
            in: folder.url,
            timeout: 10)
        #expect(second.status == 1)
        #expect(
            second.stderr.contains("cannot listen on 127.0.0.1:\(first.port): address already in use"),
            "\(second.stderr)")
        // The first server still gets every request.
        for _ in 0..<6 {
            let answer = try Curl.request(
                "http://127.0.0.1:\(first.port)/apple-app-site-association", ["-H", "Host: example.com"])
            #expect(answer.status == 200)
        }
        let noListener = try BinaryRunner.run(
            ["serve", "--sites", "sites", "--http", "off"], in: folder.url, timeout: 10)
        #expect(noListener.status == 1)
        #expect(noListener.stderr.contains("no listener: give --http or --https ADDR:PORT"))
        #expect(!noListener.stderr.contains("Invalid argument"))
    }

    @Test(
        "--version; start-up messages in our words; --log-format json covers start-up diagnostics; one timestamp format"
    )
    func messages() throws {
        let version = try BinaryRunner.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("aasa-server "))
        let folder = try TemporaryFolder()
        let missing = try BinaryRunner.run(["serve", "--sites", "nowhere", "--http", "127.0.0.1:0"], in: folder.url)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read the sites directory: no such folder"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("couldn"))
        try folder.write(
            "sites/bad.test/apple-app-site-association",
            SiteFixtures.badAppIDAASA)
        let json = try BinaryRunner.run(
            ["serve", "--sites", "sites", "--http", "127.0.0.1:0", "--log-format", "json"], in: folder.url)
        #expect(json.status == 1)
        let events = json.stderr.split(separator: "\n").map {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(!events.isEmpty && events.allSatisfy { $0 != nil }, "\(json.stderr)")
        #expect(
            events.contains {
                $0?["code"] as? String == "AASA201" && $0?["line"] as? Int == 1
                    && $0?["level"] as? String == "error"
            })
        #expect(events.contains { ($0?["message"] as? String)?.hasPrefix("not starting") == true })
        try folder.write(
            "good/example.com/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        let server = try RunningServer(in: folder.url, ["--sites", "good"])
        _ = try Curl.request("http://127.0.0.1:\(server.port)/apple-app-site-association", ["-H", "Host: example.com"])
        #expect(server.stop() == 0)
        // Events and the access log start with the same UTC timestamp form.
        let stamp = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ /#
        #expect(
            server.errors.split(separator: "\n").first { $0.contains("listening on http") }.map {
                $0.firstMatch(of: stamp) != nil
            } == true)
        #expect(
            server.accessLog.split(separator: "\n").first.map { $0.firstMatch(of: stamp) != nil } == true,
            "\(server.accessLog)")
    }

    @Test("an event loop that cannot be set up (no descriptor for its epoll set) fails start-up, exit 1")
    func loopSetupFailure() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "sites/example.com/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        // ulimit in sh sets the hard limit too, so the server cannot raise it.
        let output = try BinaryRunner.run(
            [
                "-c", "ulimit -n 12 && exec \"$0\" \"$@\"", BinaryRunner.binary.path, "serve", "--sites", "sites",
                "--http", "127.0.0.1:0",
                "--admin", "off", "--workers", "4",
            ], in: folder.url, executable: URL(fileURLWithPath: "/bin/sh"), timeout: 10)
        #expect(output.status == 1)
        #expect(output.stderr.contains("not starting: cannot start an event loop"), "\(output.stderr)")
    }

    @Test(
        "expectations.json: a broken promise stops start-up; a reload that would break one keeps the last good file; never served"
    )
    func expectations() throws {
        let folder = try TemporaryFolder()
        let good =
            SiteFixtures.oneAppAASA(path: "/buy/*")
        let breaking =
            SiteFixtures.oneAppAASA(path: "/sell/*")
        let promise =
            #"{"apple": [{"url": "https://example.com/buy/1", "app": "ABCDE12345.com.example.app", "expect": "match"}]}"#
        try folder.write("sites/example.com/apple-app-site-association", breaking)
        try folder.write("sites/example.com/expectations.json", "\n" + promise)
        let refused = try BinaryRunner.run(
            ["serve", "--sites", "sites", "--http", "127.0.0.1:0", "--admin", "off"], in: folder.url)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "sites/example.com/expectations.json:2:12: error: https://example.com/buy/1 "
                    + "ABCDE12345.com.example.app: expected match, got no_match"
            ),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("[EXP001]"))
        try folder.write("sites/example.com/apple-app-site-association", good)
        let server = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        for path in ["/expectations.json", "/.well-known/expectations.json"] {
            #expect(try Curl.request(base + path, ["-H", "Host: example.com"]).status == 404)
        }
        try folder.write("sites/example.com/apple-app-site-association", breaking)
        server.signal(SIGHUP)
        #expect(
            eventually(3) { server.errors.contains("reload refused; kept their last good files: example.com") },
            "\(server.errors)")
        #expect(
            try Curl.request(base + "/apple-app-site-association", ["-H", "Host: example.com"]).body == Data(good.utf8))
    }

    /// Waits up to `seconds` for `condition`.
    @Test("a log reader that stops reading never stalls serving: lines are kept, then dropped and counted")
    func slowAccessLogReader() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "sites/example.com/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        // The access log goes to a pipe nobody reads (64 KiB of room); events are read so the port is known.
        let process = Process()
        process.executableURL = BinaryRunner.binary
        process.arguments = [
            "serve", "--sites", "sites", "--http", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--workers", "1",
        ]
        process.currentDirectoryURL = folder.url
        let unread = Pipe()
        // Events to a file (no readability handler left with libdispatch, RunningServer.swift).
        let eventsFile = try folder.write("events.log", "")
        let events = try FileHandle(forWritingTo: URL(fileURLWithPath: eventsFile))
        process.standardOutput = unread
        process.standardError = events
        try process.run()
        try events.close()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        func port(_ prefix: String) -> Int? {
            let log = (try? String(contentsOfFile: eventsFile, encoding: .utf8)) ?? ""
            return log.range(of: prefix).flatMap { Int(log[$0.upperBound...].prefix { $0.isNumber }) }
        }
        #expect(eventually(15) { port("info admin listening on http://127.0.0.1:") != nil })
        let http = try #require(port("info listening on http://127.0.0.1:"))
        let admin = try #require(port("info admin listening on http://127.0.0.1:"))
        // 3,000 pipelined requests with 1 KB user agents: about 3 MB of access log.
        let agent = String(repeating: "a", count: 1_000)
        let request = "GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\nUser-Agent: \(agent)\r\n\r\n"
        let client = try RawClient(port: http, receiveTimeout: 10)
        let reader = DispatchQueue(label: "reader")
        let answers = LockedData()
        let done = DispatchSemaphore(value: 0)
        // Read while sending, on another thread, as a client would (the socket is the client's own).
        nonisolated(unsafe) let receiving = client
        reader.async {
            answers.set(Data(receiving.readAll().bytes))
            done.signal()
        }
        for _ in 0..<30 { client.send(String(repeating: request, count: 100)) }
        client.send("GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
        #expect(done.wait(timeout: .now() + 20) == .success)
        let received = String(decoding: answers.get(), as: UTF8.self)
        // The bodies end without a newline, so responses are counted by their status line's text.
        #expect(received.components(separatedBy: "HTTP/1.1 200 OK\r\n").count - 1 == 3_001, "\(received.prefix(300))")
        let metrics = String(decoding: try Curl.request("http://127.0.0.1:\(admin)/metrics").body, as: UTF8.self)
        let dropped = metrics.split(separator: "\n").first { $0.hasPrefix("aasa_access_log_dropped_total ") }
        #expect(
            dropped.flatMap { Int($0.split(separator: " ")[1]) }.map { $0 > 0 } == true, "\(dropped ?? "no series")")
    }

    @Test("SIGTERM while a slow reader is mid-response: the response completes, then the server exits 0")
    func gracefulStop() throws {
        let folder = try TemporaryFolder()
        // 60 pipelined answers of 120 KB: 7 MB, more than the socket buffers hold, so the
        // server still has most of them to write when it is told to stop.
        let body =
            SiteFixtures.webCredentialsAASA() + String(repeating: " ", count: 120_000)
        try folder.write("sites/example.com/apple-app-site-association", body)
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1"])
        let idle = try RawClient(port: server.port, receiveTimeout: 5)
        idle.send("GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n")
        #expect(RawClient.readResponse(idle) != nil)
        let slow = try RawClient(port: server.port, receiveTimeout: 10, receiveBuffer: 4096)
        let request =
            "GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\nAccept-Encoding: identity\r\n\r\n"
        slow.send(String(repeating: request, count: 60))
        // The server is writing the answers (the first bytes wait unread) when told to stop.
        #expect(eventually(5) { slow.hasPendingBytes })
        server.signal(SIGTERM)
        #expect(eventually(5) { server.errors.contains("stopping: finishing responses in flight") })
        // The idle keep-alive connection is closed at once; the busy one is not.
        #expect(idle.readAll().closedByServer)
        #expect(server.process.isRunning, "the server stopped before the responses in flight were read")
        let answer = String(decoding: slow.readAll().bytes, as: UTF8.self)
        let responses = answer.components(separatedBy: "HTTP/1.1 200 OK\r\n").dropFirst()
        #expect(!responses.isEmpty)
        #expect(responses.allSatisfy { $0.hasSuffix(body) }, "a response was cut short")
        #expect(server.stop() == 0)
        #expect(server.errors.contains("stopped"))
    }

    @Test("a file over 128 KiB stops start-up")
    func oversized() throws {
        let folder = try TemporaryFolder()
        let padding = String(repeating: " ", count: 140_000)
        try folder.write(
            "sites/big.test/apple-app-site-association",
            SiteFixtures.webCredentialsAASA() + padding)
        let output = try BinaryRunner.run(
            ["serve", "--sites", folder.url.appendingPathComponent("sites").path, "--http", "127.0.0.1:0"],
            in: folder.url)
        #expect(output.status == 1)
        #expect(output.stderr.contains("[AASA001]"))
    }

    @Test("settings: flags over AASA_* over the config file; bad values are usage errors")
    func settings() throws {
        let folder = try TemporaryFolder()
        try folder.write("config.json", #"{"sites": "missing", "http": "127.0.0.1:0", "unknownSetting": 1}"#)
        let unknown = try BinaryRunner.run(["serve", "--config", "config.json"], in: folder.url)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown setting \"unknownSetting\""))
        let badAddress = try BinaryRunner.run(["serve", "--http", "localhost"], in: folder.url)
        #expect(badAddress.status == 2)
        let missingSites = try BinaryRunner.run(
            ["serve", "--sites", "nowhere", "--http", "127.0.0.1:0"], in: folder.url)
        #expect(missingSites.status == 2)
        #expect(missingSites.stderr.contains("cannot read the sites directory"))
        // Precedence, seen in which sites folder start-up tries to read: flag over AASA_* over file.
        try folder.write("layers.json", #"{"sites": "from-file", "http": "127.0.0.1:0"}"#)
        let fileOnly = try BinaryRunner.run(["serve", "--config", "layers.json"], in: folder.url)
        #expect(fileOnly.stderr.contains("from-file: error: cannot read the sites directory"), "\(fileOnly.stderr)")
        let environment = try BinaryRunner.run(
            ["serve", "--config", "layers.json"], in: folder.url, environment: ["AASA_SITES": "from-env"])
        #expect(
            environment.stderr.contains("from-env: error: cannot read the sites directory"), "\(environment.stderr)")
        #expect(!environment.stderr.contains("from-file"))
        let flag = try BinaryRunner.run(
            ["serve", "--config", "layers.json", "--sites", "from-flag"], in: folder.url,
            environment: ["AASA_SITES": "from-env"])
        #expect(flag.stderr.contains("from-flag: error: cannot read the sites directory"), "\(flag.stderr)")
        #expect(!flag.stderr.contains("from-env") && !flag.stderr.contains("from-file"))
    }
}
