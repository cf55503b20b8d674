import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// The README's "Host your own domains" run as a newcomer runs it: its shell blocks, as
/// written, in an empty folder where `.build/release/aasa-server` is the binary under test.
@Suite("README: host your own domains")
struct ReadmeWalkthroughTests {
    /// The `sh` blocks of the section, in order.
    static func blocks() throws -> [String] {
        let readme = try String(
            contentsOf: BinaryRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "\n## Host your own domains\n"))
        let end = try #require(readme.range(of: "\n## ", range: start.upperBound..<readme.endIndex))
        let section = readme[start.upperBound..<end.lowerBound]
        return section.components(separatedBy: "```sh\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
    }

    static func bash(_ script: String, in folder: URL) throws -> BinaryRunner.Output {
        try BinaryRunner.run(
            ["-e", "-o", "pipefail", "-c", script], in: folder, executable: URL(fileURLWithPath: "/bin/bash"))
    }

    @Test("every command of the section runs as shown and the curl checks get the files")
    func walkthrough() throws {
        let blocks = try Self.blocks()
        try #require(blocks.count == 3)
        let folder = try TemporaryFolder()
        let release = folder.url.appendingPathComponent(".build/release")
        try FileManager.default.createDirectory(at: release, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: release.appendingPathComponent("aasa-server"), withDestinationURL: BinaryRunner.binary)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("certs"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: BinaryRunner.packageRoot.appendingPathComponent("certs/make-dev-certs.sh"),
            to: folder.url.appendingPathComponent("certs/make-dev-certs.sh"))

        let setup = try Self.bash(blocks[0], in: folder.url)
        #expect(setup.status == 0, "\(setup.stderr)")
        // The second block: every line but `serve`, which runs in the background here.
        let lines = blocks[1].split(separator: "\n").map(String.init)
        let serveLine = try #require(lines.first { $0.contains(" serve ") })
        let prepare = try Self.bash(lines.filter { $0 != serveLine }.joined(separator: "\n"), in: folder.url)
        #expect(prepare.status == 0, "\(prepare.stdout)\(prepare.stderr)")
        #expect(prepare.stdout.contains("files checked: valid"))
        #expect(prepare.stdout.contains("match     A1B2C3D4E5.com.acmeshop.app"))
        let arguments = Array(serveLine.split(separator: " ").dropFirst(2).map(String.init))
        let server = try RunningServer(in: folder.url, arguments)
        defer { _ = server.stop() }

        let checks = try Self.bash(blocks[2], in: folder.url)
        #expect(checks.status == 0, "\(checks.stderr)")
        #expect(checks.stdout.contains("HTTP/1.1 200 OK"))
        #expect(checks.stdout.contains("Content-Type: application/json"))
        #expect(checks.stdout.contains("\"package_name\": \"com.acmeshop.app\""), "the alias answers")
        #expect(
            checks.stdout.components(separatedBy: "A1B2C3D4E5.com.acmeshop.app").count >= 3,
            "the exact site and the wildcard over HTTPS")
        #expect(checks.stdout.contains("\"aliases\":[\"go.acme-shop.com\"]"))
    }

    /// The `sh` block after "Check it the way Apple's CDN and a user would" in "Two commands".
    static func checksOfTwoCommands() throws -> String {
        let readme = try String(
            contentsOf: BinaryRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "Check it the way Apple's CDN and a user would:\n\n```sh\n"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        return String(readme[start.upperBound..<end.lowerBound])
    }

    @Test("the checks of \"Two commands\" answer as `make run` serves Config/ (on free ports)")
    func twoCommandsChecks() throws {
        let folder = try TemporaryFolder()
        let certificates = folder.url.appendingPathComponent("certs")
        let made = try BinaryRunner.run(
            ["certs/make-dev-certs.sh", certificates.path], executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(made.status == 0, "\(made.stderr)")
        let https = try ProbeTests.freePort()
        // `make run`: Config/aasa-server.json from the package root, plus --https.
        let server = try RunningServer(
            in: BinaryRunner.packageRoot,
            [
                "--certs", certificates.path, "--http", "127.0.0.1:0", "--https", "127.0.0.1:\(https)", "--admin",
                "off", "--access-log", "off",
            ])
        defer { _ = server.stop() }
        let script = try Self.checksOfTwoCommands().replacingOccurrences(of: "8080", with: String(server.port))
            .replacingOccurrences(of: "8443", with: String(https))
        let checks = try Self.bash(script, in: folder.url)
        #expect(checks.status == 0, "\(checks.stderr)")
        #expect(checks.stdout.components(separatedBy: "HTTP/1.1 200 OK").count - 1 >= 4, "\(checks.stdout)")
        #expect(checks.stdout.lowercased().contains("content-encoding: gzip"))
        #expect(checks.stdout.contains("Verify return code: 0 (ok)"))
    }
}
