import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// The admin listener trusts no stranger (docs/security.md, "The admin listener"): a foreign Host is
/// refused (DNS rebinding), a token file makes every path but the probes need the token, and a
/// public admin listener needs one.
@Suite("admin listener access")
struct AdminListenerTests {
    static let site = SiteFixtures.webCredentialsAASA()
    static let token = "0123456789abcdef0123456789abcdef"

    func sites() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.site)
        return folder
    }

    func tokenFile(_ folder: TemporaryFolder, _ contents: String = token + "\n", mode: mode_t = 0o600) throws -> String
    {
        let path = try folder.write("admin-token", contents)
        #expect(chmod(path, mode) == 0)
        return path
    }

    func admin(_ port: Int, _ path: String, _ options: [String] = []) throws -> Curl.Response {
        try Curl.request("http://127.0.0.1:\(port)\(path)", options)
    }

    @Test(
        "a foreign Host gets 421 with a readable reason on every path; IP literals, localhost and adminHosts names work"
    )
    func foreignHost() throws {
        let folder = try sites()
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--admin-host", "admin.internal", "--admin-host", "Ops.Example."])
        defer { _ = server.stop() }
        let port = try #require(server.adminPort)
        for path in ["/sites.json", "/metrics", "/", "/?url=https://example.com/", "/healthz", "/nowhere"] {
            for host in [
                "attacker.example", "attacker.example:\(port)", "localhost.attacker.example", "127.0.0.1.nip.io",
            ] {
                let refused = try admin(port, path, ["-H", "Host: \(host)"])
                #expect(refused.status == 421, "\(host) \(path)")
                let body = String(decoding: refused.body, as: UTF8.self)
                #expect(body.hasPrefix("421 Misdirected Request"), "\(body)")
                #expect(!body.contains("example.com"), "no site leaks")
            }
        }
        let accepted = [
            "127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST", "[::1]:\(port)", "admin.internal",
            "admin.internal:\(port)", "ops.example", "OPS.EXAMPLE.:1",
        ]
        for host in accepted {
            let answer = try admin(port, "/sites.json", ["-H", "Host: \(host)"])
            #expect(answer.status == 200, "\(host)")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("example.com"))
        }
        // curl's own Host for an IP URL, and HEAD.
        #expect(try admin(port, "/metrics").status == 200)
        #expect(try admin(port, "/", ["-I", "-H", "Host: attacker.example"]).status == 421)
    }

    @Test("every admin answer carries a Content-Security-Policy without script or framing, and nosniff")
    func securityHeaders() throws {
        let folder = try sites()
        let server = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        let port = try #require(server.adminPort)
        for (path, options) in [
            ("/", []), ("/metrics", []), ("/sites.json", []), ("/healthz", []), ("/nowhere", []),
            ("/", ["-H", "Host: attacker.example"]), ("/", ["-X", "POST"]),
        ] {
            let answer = try admin(port, path, options)
            let policy = try #require(answer.headers["content-security-policy"], "\(path) \(options)")
            let directives = Set(policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(directives.contains("default-src 'none'"))
            #expect(directives.contains("frame-ancestors 'none'"))
            #expect(!policy.contains("script-src"))
            #expect(answer.headers["x-content-type-options"] == "nosniff")
        }
    }

    @Test("with a token file, every path but /healthz and /readyz needs Authorization: Bearer (401 otherwise)")
    func tokenEnforced() throws {
        let folder = try sites()
        let file = try tokenFile(folder)
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--admin-token-file", file])
        defer { _ = server.stop() }
        let port = try #require(server.adminPort)
        let right = ["-H", "Authorization: Bearer \(Self.token)"]
        for path in ["/sites.json", "/metrics", "/", "/nowhere"] {
            for options in [
                [], ["-H", "Authorization: Bearer wrong"], ["-H", "Authorization: Bearer \(Self.token)x"],
                ["-H", "Authorization: Basic \(Self.token)"], ["-u", "admin:\(Self.token)"],
                ["-H", "Authorization: Bearer \(Self.token.dropLast())"],
            ] {
                let refused = try admin(port, path, options)
                #expect(refused.status == 401, "\(path) \(options)")
                #expect(refused.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
                #expect(!String(decoding: refused.body, as: UTF8.self).contains("example.com"))
            }
        }
        #expect(try admin(port, "/sites.json", right).status == 200)
        #expect(try admin(port, "/metrics", right).status == 200)
        #expect(try admin(port, "/", ["-H", "authorization: bearer \(Self.token)"]).status == 200)
        #expect(try admin(port, "/nowhere", right).status == 404)
        // Probes stay open (the kubelet sends no token); a foreign Host is still refused.
        #expect(try admin(port, "/healthz").status == 200)
        #expect(try admin(port, "/readyz").status == 200)
        #expect(try admin(port, "/healthz", ["-H", "Host: attacker.example"]).status == 421)
        #expect(try admin(port, "/sites.json", right + ["-H", "Host: attacker.example"]).status == 421)
    }

    @Test("--admin-public without a token file does not start, and says what to add")
    func publicNeedsToken() throws {
        let folder = try sites()
        for admin in ["127.0.0.1:0", "0.0.0.0:0"] {
            let run = try BinaryRunner.run(
                ["serve", "--sites", "sites", "--http", "127.0.0.1:0", "--admin", admin, "--admin-public"],
                in: folder.url, timeout: 20)
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.contains("--admin-public needs --admin-token-file"), "\(run.stderr)")
        }
        let file = try tokenFile(folder)
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--admin", "0.0.0.0:0", "--admin-public", "--admin-token-file", file])
        defer { _ = server.stop() }
        #expect(server.errors.contains("admin listening on http://0.0.0.0:"))
    }

    @Test("--admin-public refuses a token shorter than 16 bytes; loopback takes any")
    func publicNeedsLongToken() throws {
        let folder = try sites()
        for short in ["a", "0123456789abcde"] {
            let file = try tokenFile(folder, short + "\n")
            let run = try BinaryRunner.run(
                [
                    "serve", "--sites", "sites", "--http", "127.0.0.1:0", "--admin", "0.0.0.0:0", "--admin-public",
                    "--admin-token-file", file,
                ],
                in: folder.url, timeout: 20)
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.contains("needs at least 16"), "\(run.stderr)")
        }
        let file = try tokenFile(folder, "a\n")
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--admin-token-file", file])
        defer { _ = server.stop() }
        let port = try #require(server.adminPort)
        #expect(try admin(port, "/metrics", ["-H", "Authorization: Bearer a"]).status == 200)
    }

    @Test("a token file that others can read, an empty one or a missing one stops start-up")
    func tokenFileRefused() throws {
        let folder = try sites()
        for (contents, mode, message) in [
            (Self.token, mode_t(0o644), "readable or writable by others"), ("\n", 0o600, "is empty"),
            ("two words", 0o600, "must be one line"),
        ] {
            let file = try tokenFile(folder, contents, mode: mode)
            let run = try BinaryRunner.run(
                [
                    "serve", "--sites", "sites", "--http", "127.0.0.1:0", "--admin", "127.0.0.1:0",
                    "--admin-token-file", file,
                ],
                in: folder.url, timeout: 20)
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
        }
        let missing = try BinaryRunner.run(
            ["serve", "--sites", "sites", "--http", "127.0.0.1:0", "--admin-token-file", "nowhere"], in: folder.url,
            timeout: 20)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read the admin token file nowhere"), "\(missing.stderr)")
    }

    @Test(
        "a token file a foreign group can read is used, with a warning",
        .enabled(if: geteuid() == 0, "only root can give a file to a group it is not in"))
    func groupReadable() throws {
        let folder = try sites()
        let file = try tokenFile(folder, mode: 0o640)
        // A group this server is not in (the tests may run as root, who may chown).
        let foreign = gid_t(54_321)
        try #require(getegid() != foreign)
        try #require(chown(file, geteuid(), foreign) == 0, "chown: \(String(cString: strerror(errno)))")
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--admin-token-file", file])
        defer { _ = server.stop() }
        #expect(server.errors.contains("is readable by group 54321"), "\(server.errors)")
        let port = try #require(server.adminPort)
        #expect(try admin(port, "/metrics", ["-H", "Authorization: Bearer \(Self.token)"]).status == 200)
    }

    @Test(
        "adminHosts and adminTokenFile from the config file (relative to it), the token file from AASA_ADMIN_TOKEN_FILE"
    )
    func configFile() throws {
        let folder = try sites()
        _ = try tokenFile(folder)
        try folder.write(
            "aasa-server.json",
            #"{"sites": "sites", "adminHosts": ["admin.internal"], "adminTokenFile": "admin-token"}"#)
        let server = try RunningServer(in: folder.url, ["--config", "aasa-server.json"])
        defer { _ = server.stop() }
        let port = try #require(server.adminPort)
        let right = ["-H", "Authorization: Bearer \(Self.token)"]
        #expect(try admin(port, "/sites.json", right + ["-H", "Host: admin.internal"]).status == 200)
        #expect(try admin(port, "/sites.json", ["-H", "Host: admin.internal"]).status == 401)
        #expect(try admin(port, "/sites.json", right + ["-H", "Host: other.internal"]).status == 421)
        let bad = try BinaryRunner.run(
            ["serve", "--sites", "sites", "--http", "127.0.0.1:0", "--admin-public"], in: folder.url,
            environment: ["AASA_ADMIN_TOKEN_FILE": folder.url.appendingPathComponent("nowhere").path], timeout: 20)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("cannot read the admin token file"), "\(bad.stderr)")
    }
}
