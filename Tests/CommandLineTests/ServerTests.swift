import Foundation
import TestSupport
import Testing

/// The real server over real sockets: curl as a user runs it, and a raw client for what
/// curl will not send.
@Suite("aasa-server serve", .serialized)
final class ServerTests {
    static let apple =
        SiteFixtures.oneAppAASA(path: "/buy/*")
        + "\n" + String(repeating: " ", count: 600) + "\n"
    static let android =
        SiteFixtures.oneAppAssetLinks()
    static let staging = #"{"webcredentials": {"apps": ["ABCDE12345.com.example.staging"]}}"#

    let folder: TemporaryFolder
    let server: RunningServer
    var base: String { "http://127.0.0.1:\(server.port)" }

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.apple)
        try folder.write("sites/example.com/assetlinks.json", Self.android)
        try folder.write("sites/*.staging.example.com/apple-app-site-association", Self.staging)
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("sites/www.example.com").path, withDestinationPath: "example.com")
        try folder.write(
            "outside/apple-app-site-association", #"{"webcredentials": {"apps": ["SECRET1234.com.secret"]}}"#)
        try folder.write(
            "config.json",
            #"{"sites": "sites", "timeouts": {"requestHead": 1, "keepAlive": 2, "write": 2, "shutdown": 5}, "workers": 2}"#
        )
        server = try RunningServer(in: folder.url, ["--config", "config.json"])
    }

    deinit {
        _ = server.stop()
    }

    @Test("both Apple paths serve the exact bytes with the headers Apple and curl expect")
    func applePaths() throws {
        for path in [
            "/.well-known/apple-app-site-association", "/apple-app-site-association", "/apple-app-site-association?x=1",
        ] {
            let response = try Curl.request(base + path, ["-H", "Host: example.com", "-A", "AASA-Bot/1.0.0"])
            #expect(response.status == 200)
            #expect(response.body == Data(Self.apple.utf8))
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.headers["content-length"] == String(Self.apple.utf8.count))
            #expect(response.headers["etag"]?.hasPrefix("\"") == true)
            #expect(response.headers["last-modified"]?.hasSuffix(" GMT") == true)
            #expect(response.headers["cache-control"] == "max-age=3600")
            #expect(response.headers["x-content-type-options"] == "nosniff")
            #expect(response.headers["date"]?.hasSuffix(" GMT") == true)
            #expect(response.headers["location"] == nil)
        }
        let android = try Curl.request(base + "/.well-known/assetlinks.json", ["-H", "Host: example.com"])
        #expect(android.status == 200)
        #expect(android.body == Data(Self.android.utf8))
        #expect(android.headers["content-type"] == "application/json")
    }

    @Test("aliases, wildcards, case and ports pick the right site; unknown hosts get 404")
    func hosts() throws {
        #expect(
            try Curl.request(base + "/apple-app-site-association", ["-H", "Host: www.example.com"]).body
                == Data(Self.apple.utf8))
        #expect(
            try Curl.request(base + "/apple-app-site-association", ["-H", "Host: WWW.Example.COM.:443"]).body
                == Data(Self.apple.utf8))
        #expect(
            try Curl.request(base + "/apple-app-site-association", ["-H", "Host: pr-1.staging.example.com"]).body
                == Data(Self.staging.utf8))
        #expect(
            try Curl.request(base + "/apple-app-site-association", ["-H", "Host: a.b.staging.example.com"]).body
                == Data(Self.staging.utf8))
        #expect(
            try Curl.request(base + "/apple-app-site-association", ["-H", "Host: staging.example.com"]).status == 404)
        #expect(try Curl.request(base + "/apple-app-site-association", ["-H", "Host: unknown.test"]).status == 404)
        #expect(
            try Curl.request(base + "/.well-known/assetlinks.json", ["-H", "Host: pr-1.staging.example.com"]).status
                == 404)
    }

    @Test("hostile Host values never reach a file outside the sites directory")
    func hostileHosts() throws {
        for host in [
            "..", "../outside", "..%2Foutside", "outside/..", "sites", "/etc", "example.com/../outside",
            "*.staging.example.com", ".",
        ] {
            let answer = try RawClient.exchange(
                port: server.port,
                "GET /apple-app-site-association HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            #expect(!answer.contains("SECRET"), "\(host)")
            #expect(
                answer.statusLines.first == "HTTP/1.1 400 Bad Request"
                    || answer.statusLines.first == "HTTP/1.1 404 Not Found", "\(host): \(answer.statusLines)")
        }
    }

    @Test("no redirect on any path; other paths are 404")
    func noRedirects() throws {
        for path in [
            "/", "/.well-known/", "/.well-known/apple-app-site-association/", "/apple-app-site-association.json",
            "//apple-app-site-association", "/.well-known/apple-app-site-association%2F", "/index.html",
        ] {
            let response = try Curl.request(base + path, ["-H", "Host: example.com", "--path-as-is"])
            #expect(response.status == 404, "\(path)")
            #expect(response.headers["location"] == nil)
        }
    }

    @Test("HEAD has the headers and no body, for errors too; other methods are 405 with Allow")
    func methods() throws {
        // A HEAD for a missing path answers 404 without a body, so the next pipelined
        // response is not mistaken for one.
        let pipelined = try RawClient.exchange(
            port: server.port,
            "HEAD /nothing HTTP/1.1\r\nHost: example.com\r\n\r\nGET /apple-app-site-association HTTP/1.1\r\nHost: "
                + "example.com\r\nConnection: close\r\n\r\n"
        )
        #expect(pipelined.statusLines == ["HTTP/1.1 404 Not Found", "HTTP/1.1 200 OK"])
        #expect(!pipelined.contains("404 Not Found\n"))
        let head = try Curl.request(base + "/apple-app-site-association", ["-I", "-H", "Host: example.com"])
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["content-length"] == String(Self.apple.utf8.count))
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"] {
            let response = try Curl.request(
                base + "/apple-app-site-association", ["-X", method, "-H", "Host: example.com"])
            #expect(response.status == 405, "\(method)")
            #expect(response.headers["allow"] == "GET, HEAD")
        }
    }

    @Test("304 for a matching If-None-Match or a not-newer If-Modified-Since")
    func conditional() throws {
        let first = try Curl.request(base + "/apple-app-site-association", ["-H", "Host: example.com"])
        let etag = try #require(first.headers["etag"])
        let modified = try #require(first.headers["last-modified"])
        let notModified = try Curl.request(
            base + "/apple-app-site-association", ["-H", "Host: example.com", "-H", "If-None-Match: \(etag)"])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.headers["etag"] == etag)
        #expect(
            try Curl.request(
                base + "/apple-app-site-association", ["-H", "Host: example.com", "-H", "If-None-Match: \"other\""]
            ).status == 200)
        #expect(
            try Curl.request(
                base + "/apple-app-site-association",
                ["-H", "Host: example.com", "-H", "If-Modified-Since: \(modified)"]
            ).status == 304)
        #expect(
            try Curl.request(
                base + "/apple-app-site-association",
                ["-H", "Host: example.com", "-H", "If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT"]
            ).status == 200)
        // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
        #expect(
            try Curl.request(
                base + "/apple-app-site-association",
                ["-H", "Host: example.com", "-H", "If-None-Match: \"other\"", "-H", "If-Modified-Since: \(modified)"]
            ).status == 200)
    }

    @Test("If-None-Match split over field lines, a future If-Modified-Since, HTTP/1.2")
    func conditionalEdges() throws {
        let first = try Curl.request(base + "/apple-app-site-association", ["-H", "Host: example.com"])
        let etag = try #require(first.headers["etag"])
        func exchange(_ fields: String, version: String = "HTTP/1.1") throws -> [String] {
            try RawClient.exchange(
                port: server.port,
                "GET /apple-app-site-association \(version)\r\nHost: example.com\r\n\(fields)Connection: close\r\n\r\n"
            ).statusLines
        }
        // RFC 9110 §5.3: two field lines are one list, whichever holds the tag.
        #expect(try exchange("If-None-Match: \(etag)\r\nIf-None-Match: \"other\"\r\n") == ["HTTP/1.1 304 Not Modified"])
        #expect(try exchange("If-None-Match: \"other\"\r\nIf-None-Match: \(etag)\r\n") == ["HTTP/1.1 304 Not Modified"])
        #expect(try exchange("If-None-Match: \"a\"\r\nIf-None-Match: \"b\"\r\n") == ["HTTP/1.1 200 OK"])
        // RFC 9110 §13.1.3: a date after the server's clock is invalid, so the field is ignored.
        #expect(try exchange("If-Modified-Since: Fri, 31 Dec 9999 23:59:59 GMT\r\n") == ["HTTP/1.1 200 OK"])
        // RFC 9112 §2.3: a higher minor version of HTTP/1 is answered as HTTP/1.1.
        #expect(try exchange("", version: "HTTP/1.2") == ["HTTP/1.1 200 OK"])
        #expect(try exchange("", version: "HTTP/2.0") == ["HTTP/1.1 505 HTTP Version Not Supported"])
    }

    @Test("out-of-range dates in If-Modified-Since are ignored, and the server lives on")
    func hostileConditionalDates() throws {
        for date in [
            "Sun Nov  6 08:49:37 9888888888", "Sun, 06 Nov 9888888888 08:49:37 GMT",
            "Sunday, 06-Nov-9888888888 08:49:37 GMT",
            "Sun, 06 Nov -99999999999999999999 08:49:37 GMT", "Sun, 06 Nov 1994 99999999999:49:37 GMT",
        ] {
            for method in ["GET", "HEAD"] {
                let answer = try RawClient.exchange(
                    port: server.port,
                    "\(method) /.well-known/apple-app-site-association HTTP/1.1\r\nHost: "
                        + "example.com\r\nIf-Modified-Since: \(date)\r\nConnection: close\r\n\r\n"
                )
                #expect(answer.statusLines == ["HTTP/1.1 200 OK"], "\(method) \(date)")
            }
        }
        #expect(server.process.isRunning)
        #expect(try Curl.request(base + "/apple-app-site-association", ["-H", "Host: example.com"]).status == 200)
    }

    @Test("refused requests reach the client through a lingering close: curl reads 431, 413 and 400, never a reset")
    func lingeringClose() throws {
        // Large headers from a file (-H @FILE): one argument over 128 KiB would not fit execve(2).
        func curl(_ options: [String]) throws -> Curl.Response {
            try Curl.request(base + "/.well-known/apple-app-site-association", options + ["-H", "Host: example.com"])
        }
        for size in [20_000, 70_000, 300_000] {
            let header = try folder.write("header-\(size).txt", "X-Big: " + String(repeating: "b", count: size) + "\n")
            #expect(try curl(["-H", "@" + header]).status == 431, "\(size) bytes of header")
        }
        let body = try folder.write("body.bin", String(repeating: "x", count: 300_000))
        #expect(try curl(["-X", "GET", "--data-binary", "@" + body]).status == 413)
        #expect(try curl(["-H", "Bad Header: x", "--data-binary", "@" + body]).status == 400)
        // A 200 KB request line: the raw client finishes sending, then reads the 414.
        let client = try RawClient(port: server.port, receiveTimeout: 5)
        client.send("GET /" + String(repeating: "a", count: 200_000) + " HTTP/1.1\r\nHost: example.com\r\n\r\n")
        let answer = String(decoding: client.readAll().bytes, as: UTF8.self)
        #expect(answer.statusLines.first == "HTTP/1.1 414 URI Too Long", "\(answer.prefix(100))")
        #expect(server.process.isRunning)
    }

    @Test("gzip when accepted and smaller; identity for gzip;q=0")
    func gzip() throws {
        let compressed = try Curl.request(
            base + "/apple-app-site-association", ["--compressed", "-H", "Host: example.com"])
        #expect(compressed.headers["content-encoding"] == "gzip")
        #expect(compressed.headers["vary"] == "Accept-Encoding")
        #expect(compressed.body == Data(Self.apple.utf8))
        #expect(Int(compressed.headers["content-length"] ?? "") ?? .max < Self.apple.utf8.count)
        let refused = try Curl.request(
            base + "/apple-app-site-association", ["-H", "Accept-Encoding: gzip;q=0", "-H", "Host: example.com"])
        #expect(refused.headers["content-encoding"] == nil)
        #expect(refused.body == Data(Self.apple.utf8))
        #expect(refused.headers["vary"] == "Accept-Encoding")
    }

    @Test("a file's whole response is kept per second at most: its Date moves on with the clock")
    func dateMovesOn() throws {
        let url = base + "/apple-app-site-association"
        let first = try #require(try Curl.request(url, ["-H", "Host: example.com"]).headers["date"])
        var later = first
        let changed = eventually(5) {
            later = (try? Curl.request(url, ["-H", "Host: example.com"]).headers["date"]) ?? first
            return later != first
        }
        #expect(changed, "still \(later)")
    }

    @Test("a client that resets with answers still queued leaves none of them to the next client")
    func resetWithQueuedAnswers() throws {
        // One loop, so the next connection is served where the answers were queued.
        let single = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1"])
        defer { _ = single.stop() }
        let request = "GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n"
        for _ in 0..<5 {
            do {
                let gone = try RawClient(port: single.port)
                gone.send(String(repeating: request, count: 2_000))
                gone.resetOnClose()
            }
            let next = try RawClient.exchange(
                port: single.port,
                "GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
            #expect(next.statusLines == ["HTTP/1.1 200 OK"])
        }
    }

    @Test("pipelined requests are answered in order; HTTP/1.0 closes unless keep-alive")
    func pipeliningAndHTTP10() throws {
        let pipelined = try RawClient.exchange(
            port: server.port,
            "GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\nHEAD /.well-known/assetlinks.json "
                + "HTTP/1.1\r\nHost: example.com\r\n\r\nGET /nothing HTTP/1.1\r\nHost: example.com\r\n\r\nGET "
                + "/.well-known/assetlinks.json HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n"
        )
        #expect(
            pipelined.statusLines == [
                "HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found", "HTTP/1.1 200 OK",
            ])
        #expect(pipelined.hasSuffix(Self.android))
        let http10 = try RawClient.exchange(
            port: server.port, "GET /apple-app-site-association HTTP/1.0\r\nHost: example.com\r\n\r\n")
        #expect(http10.statusLines == ["HTTP/1.1 200 OK"])
        #expect(http10.contains("Connection: close\r\n"))
        let keepAlive = try RawClient(port: server.port, receiveTimeout: 1)
        keepAlive.send(
            "GET /apple-app-site-association HTTP/1.0\r\nHost: example.com\r\nConnection: keep-alive\r\n\r\n")
        let answer = keepAlive.readAll()
        #expect(!answer.closedByServer)
        #expect(String(decoding: answer.bytes, as: UTF8.self).contains("Connection: keep-alive\r\n"))
        let noHost = try RawClient.exchange(port: server.port, "GET /apple-app-site-association HTTP/1.0\r\n\r\n")
        #expect(noHost.statusLines == ["HTTP/1.1 404 Not Found"])
    }

    @Test("malformed requests get a 4xx and a close")
    func malformed() throws {
        let cases: [(String, String)] = [
            ("GET /apple-app-site-association HTTP/1.1\r\n\r\n", "400"),
            ("NOT HTTP AT ALL\r\n\r\n", "400"),
            ("GET /" + String(repeating: "a", count: 10_000) + " HTTP/1.1\r\nHost: example.com\r\n\r\n", "414"),
            (
                "GET / HTTP/1.1\r\nHost: example.com\r\nX-Big: " + String(repeating: "b", count: 20_000) + "\r\n\r\n",
                "431"
            ),
            ("GET / HTTP/1.1\r\nHost: example.com\r\n" + (0..<100).map { "X-\($0): v\r\n" }.joined() + "\r\n", "431"),
            ("GET / HTTP/1.1\r\nHost: example.com\r\nContent-Length: 4\r\n\r\nbody", "413"),
            ("GET / HTTP/1.1\r\nHost: example.com\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n", "400"),
            ("GET / HTTP/3.0\r\nHost: example.com\r\n\r\n", "505"),
        ]
        for (request, status) in cases {
            let client = try RawClient(port: server.port, receiveTimeout: 5)
            client.send(request)
            let answer = client.readAll()
            let text = String(decoding: answer.bytes, as: UTF8.self)
            #expect(
                text.statusLines.first?.hasPrefix("HTTP/1.1 \(status) ") == true,
                "\(request.prefix(30)): \(text.statusLines)")
            #expect(text.contains("Connection: close\r\n"))
            #expect(answer.closedByServer)
        }
    }

    @Test("a slow request head and an idle keep-alive connection are closed at their deadlines")
    func deadlines() throws {
        let slow = try RawClient(port: server.port, receiveTimeout: 6)
        slow.send("GET /apple-app-site-association HTTP/1.1\r\nHost: exa")
        let started = Date()
        let answer = slow.readAll()
        #expect(answer.closedByServer)
        #expect(Date().timeIntervalSince(started) < 4)
        let idle = try RawClient(port: server.port, receiveTimeout: 8)
        idle.send("GET /apple-app-site-association HTTP/1.1\r\nHost: example.com\r\n\r\n")
        let idleAnswer = idle.readAll()
        #expect(idleAnswer.closedByServer)
        #expect(String(decoding: idleAnswer.bytes, as: UTF8.self).statusLines == ["HTTP/1.1 200 OK"])
    }

    @Test("deadlines fire on time, not at the next once-a-second sweep")
    func deadlinePrecision() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.staging)
        try folder.write(
            "config.json", #"{"sites": "sites", "timeouts": {"requestHead": 0.3, "keepAlive": 0.5}, "workers": 1}"#)
        let quick = try RunningServer(in: folder.url, ["--config", "config.json"])
        defer { _ = quick.stop() }
        var late: [Double] = []
        for _ in 0..<5 {
            let client = try RawClient(port: quick.port, receiveTimeout: 3)
            client.send("GET /apple-app-site-association HTTP/1.1\r\nHost: exa")
            let started = Date()
            #expect(client.readAll().closedByServer)
            late.append(Date().timeIntervalSince(started) - 0.3)
        }
        // A sweep once a second would close up to a second late; the queues close within a
        // few milliseconds (the bound here leaves room for a busy test machine).
        #expect(late.allSatisfy { $0 > -0.02 && $0 < 0.15 }, "late by \(late)")
    }

    @Test("the access log has a line per request with host, path, status, bytes and user agent")
    func accessLog() throws {
        _ = try Curl.request(
            base + "/apple-app-site-association?from=log", ["-H", "Host: example.com", "-A", "AASA-Bot/1.0.0"])
        #expect(eventually(5) { server.accessLog.contains("from=log") })
        let line = try #require(server.accessLog.split(separator: "\n").last { $0.contains("from=log") })
        #expect(
            line.contains(
                "127.0.0.1 \"example.com\" \"GET /apple-app-site-association?from=log HTTP/1.1\" 200 "
                    + "\(Self.apple.utf8.count) "
            ))
        #expect(line.hasSuffix("\"AASA-Bot/1.0.0\""))
    }
}
