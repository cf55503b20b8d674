import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// `aasa-server reload`, as the systemd unit's ExecReload runs it: the exit status says
/// whether the running server took the new files.
@Suite("reload command", .serialized)
final class ReloadCommandTests {
    static let first =
        SiteFixtures.oneAppAASA(path: "/buy/*")
    static let second =
        SiteFixtures.oneAppAASA(path: "/sell/*")

    let folder: TemporaryFolder
    let server: RunningServer
    let adminPort: Int

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.first)
        try folder.write("sites/other.com/apple-app-site-association", Self.first)
        server = try RunningServer(in: folder.url, ["--sites", "sites"])
        adminPort = try #require(server.adminPort)
    }

    deinit {
        _ = server.stop()
    }

    func reload(_ extra: [String] = []) throws -> BinaryRunner.Output {
        try BinaryRunner.run(
            ["reload", "--pid", "\(server.process.processIdentifier)", "--admin", "127.0.0.1:\(adminPort)"] + extra,
            in: folder.url)
    }

    func reloads() throws -> String {
        let metrics = String(decoding: try Curl.request("http://127.0.0.1:\(adminPort)/metrics").body, as: UTF8.self)
        return metrics.split(separator: "\n").filter { $0.hasPrefix("aasa_reloads_total{") }.joined(separator: " ")
    }

    /// Writes a site's file, then waits until the file watcher's own reload is counted, so
    /// the command's SIGHUP meets files the server has already judged (as after an edit
    /// followed by `systemctl reload`).
    func write(_ site: String, _ text: String) throws {
        let before = try reloads()
        try folder.write("sites/\(site)/apple-app-site-association", text)
        #expect(try eventually(5) { try reloads() != before })
    }

    @Test("new valid files: exit 0")
    func valid() throws {
        try write("example.com", Self.second)
        let output = try reload()
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "reloaded\n")
    }

    @Test("every new file invalid: exit 1, refused")
    func refused() throws {
        try write("example.com", SiteFixtures.truncatedAASA)
        let output = try reload()
        #expect(output.status == 1)
        #expect(output.stderr.contains("reload refused"), "\(output.stderr)")
    }

    @Test("one site taken, one kept: exit 1, partial")
    func partial() throws {
        try folder.write("sites/example.com/apple-app-site-association", Self.second)
        try folder.write("sites/other.com/apple-app-site-association", SiteFixtures.truncatedAASA)
        let output = try reload()
        #expect(output.status == 1)
        #expect(output.stderr.contains("partly applied") || output.stderr.contains("refused"), "\(output.stderr)")
    }

    @Test("no admin listener to ask: exit 2, and no signal is sent")
    func unreachable() throws {
        let output = try BinaryRunner.run(
            ["reload", "--pid", "\(server.process.processIdentifier)", "--admin", "127.0.0.1:1"], in: folder.url)
        #expect(output.status == 2)
        #expect(output.stderr.contains("cannot connect"), "\(output.stderr)")
        #expect(server.process.isRunning)
    }
}
