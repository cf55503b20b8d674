import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// `probe` against the project's own server (everything passes) and against nginx set up the
/// ways real deployments break.
@Suite("aasa-server probe", .serialized)
final class ProbeTests {
    static let apple =
        SiteFixtures.oneAppAASA(path: "/buy/*")

    let folder: TemporaryFolder
    let certificates: TestCertificates
    let nginx: Nginx
    /// Ports of the broken setups.
    let ports: [String: Int]

    init() throws {
        folder = try TemporaryFolder()
        certificates = try TestCertificates(in: folder)
        try certificates.issue("example.test", names: ["example.test", "www.example.test"])
        try certificates.issue("other.test", names: ["other.test"])
        try certificates.issue("expired.test", names: ["example.test"], days: 0)
        try certificates.issue("cdn", names: ["example.test", "app-site-association.cdn-apple.com"])
        try folder.write("root/.well-known/apple-app-site-association", Self.apple)
        try folder.write("root/apple-app-site-association", Self.apple)
        let padding = String(repeating: " ", count: 200 * 1024)
        try folder.write(
            "big/.well-known/apple-app-site-association",
            SiteFixtures.webCredentialsAASA() + padding)
        var ports: [String: Int] = [:]
        for name in ["redirect", "plain", "big", "wrongName", "expired", "cdn"] { ports[name] = try Self.freePort() }
        self.ports = ports
        nginx = try Nginx(
            in: folder,
            servers: [
                Nginx.Server(
                    port: ports["redirect", default: 0], certificate: "example.test", root: "root",
                    extra:
                        "location = /.well-known/apple-app-site-association { return 301 "
                        + "https://www.example.test/.well-known/apple-app-site-association; }"
                ),
                Nginx.Server(
                    port: ports["plain", default: 0], certificate: "example.test", root: "root",
                    extra: "default_type text/plain;"),
                Nginx.Server(
                    port: ports["big", default: 0], certificate: "example.test", root: "big",
                    extra: "default_type application/json;"),
                Nginx.Server(
                    port: ports["wrongName", default: 0], certificate: "other.test", root: "root",
                    extra: "default_type application/json;"),
                Nginx.Server(
                    port: ports["expired", default: 0], certificate: "expired.test", root: "root",
                    extra: "default_type application/json;"),
                // Origin and a stand-in for Apple's CDN on one address (probe --cdn dials it too).
                Nginx.Server(
                    port: ports["cdn", default: 0], certificate: "cdn", root: "root",
                    extra:
                        "default_type application/json; location = /a/v1/example.test { alias "
                        + "\(folder.url.path)/root/apple-app-site-association; }"
                ),
            ])
    }

    deinit {
        nginx.stop()
    }

    func probe(_ port: Int, _ extra: [String] = []) throws -> BinaryRunner.Output {
        try BinaryRunner.run(
            ["probe", "--cacert", certificates.caFile, "--connect-to", "127.0.0.1:\(port)", "--timeout", "3"] + extra
                + ["example.test"])
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test("our own server passes every item, in text and JSON")
    func ownServer() throws {
        let sites = try TemporaryFolder()
        try sites.write("sites/example.test/apple-app-site-association", Self.apple)
        try sites.write(
            "sites/example.test/assetlinks.json",
            SiteFixtures.oneAppAssetLinks()
        )
        let server = try RunningServer(
            in: sites.url,
            [
                "--sites", "sites", "--certs", certificates.directory.appendingPathComponent("example.test").path,
                "--https", "127.0.0.1:0", "--http", "off", "--default-certificate", "example.test",
            ])
        defer { _ = server.stop() }
        let output = try probe(server.port)
        #expect(output.status == 0, "\(output.stdout)")
        #expect(!output.stdout.contains(" fail "))
        #expect(output.stdout.contains("pass  certificate: valid for example.test"))
        #expect(output.stdout.contains("ready: 0 failed"))
        let json = try probe(server.port, ["--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["passed"] as? Bool == true)
        // The probe asked with Apple's marker; that is not Apple's fetch.
        let admin = try #require(server.adminPort)
        let sitesJSON = try Curl.request("http://127.0.0.1:\(admin)/sites.json")
        let listing = try #require(try JSONSerialization.jsonObject(with: sitesJSON.body) as? [String: Any])
        let site = try #require((listing["sites"] as? [[String: Any]])?.first, "\(listing)")
        #expect((site["cdn"] as? [String: Any])?["lastAppleFetch"] is NSNull, "\(site)")
        let metrics = String(decoding: try Curl.request("http://127.0.0.1:\(admin)/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"aasa_apple_fetches_total{status="200"} 0"#), "\(metrics)")
    }

    @Test("a 301 is a failure that shows where it points")
    func redirect() throws {
        let output = try probe(ports["redirect", default: 0])
        #expect(output.status == 1)
        #expect(
            output.stdout.contains(
                "fail  apple-app-site-association: redirects (301) to "
                    + "https://www.example.test/.well-known/apple-app-site-association"
            ))
        #expect(output.stdout.contains(", 1 warning\n"), "\(output.stdout)")
    }

    @Test("text/plain is a content-type failure")
    func contentType() throws {
        let output = try probe(ports["plain", default: 0])
        #expect(output.status == 1)
        #expect(output.stdout.contains("fail  apple-app-site-association content type: text/plain"))
    }

    @Test("a 200 KiB file is a size failure")
    func size() throws {
        let output = try probe(ports["big", default: 0])
        #expect(output.status == 1)
        #expect(output.stdout.contains("fail  apple-app-site-association size: 204"))
    }

    @Test("a certificate for another name, and an expired one, are certificate failures")
    func certificatesFail() throws {
        let wrong = try probe(ports["wrongName", default: 0])
        #expect(wrong.status == 1)
        #expect(wrong.stdout.contains("fail  certificate: not trusted for example.test: hostname mismatch"))
        let expired = try probe(ports["expired", default: 0])
        #expect(expired.status == 1)
        #expect(expired.stdout.contains("fail  certificate: not trusted for example.test: certificate has expired"))
    }

    @Test("a server that accepts and never answers fails within the timeout")
    func silentServer() throws {
        let port = try Self.freePort()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        listen(fd, 16)
        let started = Date()
        let output = try probe(port)
        #expect(output.status == 1)
        #expect(output.stdout.contains("fail  tls: no TLS answer within 3 s"))
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("--cdn compares Apple's CDN copy with the origin's (through --connect-to here)")
    func cdn() throws {
        let output = try probe(ports["cdn", default: 0], ["--cdn"])
        #expect(
            output.stdout.contains("pass  apple cdn: Apple's CDN copy means the same as the origin's"),
            "\(output.stdout)")
        #expect(
            output.stdout.contains(
                "(asked 127.0.0.1:\(ports["cdn", default: 0]) as app-site-association.cdn-apple.com, through --connect-to)"
            ))
    }

    @Test("a URL with --cdn: which app opens it by the origin's file and by Apple's CDN copy; no assetlinks.json")
    func cdnURL() throws {
        let port = ports["cdn", default: 0]
        let output = try BinaryRunner.run(
            [
                "probe", "--cacert", certificates.caFile, "--connect-to", "127.0.0.1:\(port)", "--timeout", "3",
                "--cdn",
                "https://example.test/buy/42",
            ])
        #expect(output.status == 0, "\(output)")
        let app = SiteFixtures.appID()
        for line in [
            "pass  ios: https://example.test/buy/42 opens \(app) by the origin's apple-app-site-association",
            "pass  ios by apple cdn: https://example.test/buy/42 opens \(app) by Apple's CDN copy",
            "warn  android: no app opens https://example.test/buy/42 by the origin's assetlinks.json: "
                + "/.well-known/assetlinks.json is 404",
        ] {
            #expect(output.stdout.contains(line), "\(line)\n\(output.stdout)")
        }
        // A domain alone, or the root, asks no URL question.
        let root = try probe(port, ["--cdn"])
        #expect(!root.stdout.contains("ios:"), "\(root.stdout)")
    }

    @Test("--cdn refuses Apple's CDN copy from a certificate that does not verify")
    func cdnUntrusted() throws {
        let port = ports["cdn", default: 0]
        // Without --cacert the test CA is not trusted: the CDN's answer is not read at all.
        let output = try BinaryRunner.run(
            ["probe", "--connect-to", "127.0.0.1:\(port)", "--timeout", "3", "--cdn", "example.test"])
        #expect(output.status == 1)
        #expect(
            output.stdout.contains(
                "fail  apple cdn: cannot reach Apple's CDN: the certificate of app-site-association.cdn-apple.com "
                    + "does not verify"),
            "\(output.stdout)")
        // A certificate that is trusted but not for Apple's CDN name is refused the same way.
        let wrongName = try probe(ports["wrongName", default: 0], ["--cdn"])
        #expect(
            wrongName.stdout.contains("fail  apple cdn: cannot reach Apple's CDN: the certificate of"),
            "\(wrongName.stdout)")
    }

    @Test("usage errors exit 2")
    func usage() throws {
        #expect(try BinaryRunner.run(["probe"]).status == 2)
        #expect(try BinaryRunner.run(["probe", "--connect-to", "nowhere", "example.test"]).status == 2)
        let plainGoogle = try BinaryRunner.run(
            ["probe", "--google", "--google-url", "http://127.0.0.1/v1/statements:list", "example.test"])
        #expect(plainGoogle.status == 2 && plainGoogle.stderr.contains("--google-url takes an https:// URL"))
        for timeout in ["0", "-1", "nan", "inf", "121"] {
            #expect(try BinaryRunner.run(["probe", "--timeout", timeout, "example.test"]).status == 2, "\(timeout)")
        }
    }
}

/// nginx started by a test on loopback, with its own config, stopped afterwards.
final class Nginx {
    struct Server {
        var port: Int
        var certificate: String
        var root: String
        var extra: String
    }

    let folder: TemporaryFolder
    let process = Process()

    struct Missing: Error, CustomStringConvertible {
        var description = "nginx is needed for the probe tests (.ci/run installs it; apt-get install nginx)"
    }

    init(in folder: TemporaryFolder, servers: [Server]) throws {
        self.folder = folder
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") else { throw Missing() }
        let base = folder.url.path
        let blocks = servers.map { server in
            """
              server {
                listen 127.0.0.1:\(server.port) ssl;
                ssl_certificate \(base)/certs/\(server.certificate)/fullchain.pem;
                ssl_certificate_key \(base)/certs/\(server.certificate)/privkey.pem;
                root \(base)/\(server.root);
                \(server.extra)
              }
            """
        }.joined(separator: "\n")
        try folder.write(
            "nginx.conf",
            """
            worker_processes 1;
            pid \(base)/nginx.pid;
            error_log \(base)/nginx-error.log warn;
            events { worker_connections 64; }
            http {
              access_log off;
              client_body_temp_path \(base); proxy_temp_path \(base); fastcgi_temp_path \(base); uwsgi_temp_path \(base); scgi_temp_path \(base);
            \(blocks)
            }
            """)
        // In the foreground (daemon off), so the test owns the process and stops it.
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-c", "\(base)/nginx.conf", "-g", "daemon off;"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        for port in servers.map(\.port) {
            for _ in 0..<100 {
                if (try? RawClient(port: port, receiveTimeout: 1)) != nil { break }
                usleep(20_000)
            }
        }
        guard process.isRunning else {
            let log =
                (try? String(contentsOf: folder.url.appendingPathComponent("nginx-error.log"), encoding: .utf8)) ?? ""
            throw RunningServer.StartFailure(description: "nginx did not start: \(log)")
        }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<250 where process.isRunning { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
