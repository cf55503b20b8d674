import AASASites
import AASASystem
import AssociationKit
import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

@testable import AASAServer

/// Site files are opened relative to their folder's descriptor with O_NOFOLLOW: a link
/// leading outside the folder is refused (SITE005), never read; a FIFO is refused without
/// blocking; a ConfigMap's links inside the folder still work (docs/serving.md).
@Suite("site files opened as checked")
struct SiteFileOpeningTests {
    static let good = SiteFixtures.oneAppAASA(paths: "/a/*")
    /// A valid file outside the sites folder: following a link to it would serve it.
    static let secret = SiteFixtures.secretAASA
    static let name = SiteDirectory.appleFileName

    func configuration(_ folder: TemporaryFolder) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.sites = folder.url.appendingPathComponent("sites").path
        return configuration
    }

    func link(_ folder: TemporaryFolder, _ path: String, to target: String) throws {
        let url = folder.url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
    }

    /// Which layouts of one site folder are read, and which are refused with which code.
    @Test(
        "a link in place of a file is followed only while it stays in the site folder",
        arguments: [
            // (links to make: path -> target, files to write, the code expected or nil when served)
            ([("example.com/\(name)", "/OUTSIDE/secret.json")], [String](), "SITE005"),
            ([("example.com/\(name)", "../../outside/secret.json")], [], "SITE005"),
            ([("example.com/\(name)", "../other.com/\(name)")], ["other.com/\(name)"], "SITE005"),
            (
                [("example.com/\(name)", "sub/../../other.com/\(name)")], ["other.com/\(name)", "example.com/sub/x"],
                "SITE005"
            ),
            ([("example.com/\(name)", "loop"), ("example.com/loop", name)], [], "SITE005"),
            ([("example.com/\(name)", "missing")], [], "SITE002"),
            // Kubernetes: the file links through `..data`, itself a link to a hidden folder.
            (
                [("example.com/\(name)", "..data/\(name)"), ("example.com/..data", "..2026_01_01")],
                ["example.com/..2026_01_01/\(name)"], nil
            ),
            (
                [("example.com/\(name)", "sub/deeper/../\(name)")],
                ["example.com/sub/\(name)", "example.com/sub/deeper/x"],
                nil
            ),
        ] as [([(String, String)], [String], String?)])
    func linkInPlaceOfFile(links: [(String, String)], files: [String], code: String?) throws {
        let folder = try TemporaryFolder()
        try folder.write("outside/secret.json", Self.secret)
        try folder.write("sites/good.example/\(Self.name)", Self.good)
        for file in files { try folder.write("sites/" + file, Self.good) }
        for (path, target) in links {
            try link(
                folder, "sites/" + path,
                to: target.replacingOccurrences(of: "/OUTSIDE", with: folder.url.appendingPathComponent("outside").path)
            )
        }
        let load = SnapshotLoader.load(configuration(folder), previous: nil)
        let snapshot = try #require(load.snapshot)
        let served = snapshot.table.content(named: "example.com")?.apple?.body
        let problems = load.problems.filter { $0.site == "example.com" && $0.severity == .error }
        if let code {
            #expect(served == nil)
            #expect(problems.map(\.code) == [code])
            #expect(problems.allSatisfy { $0.path.hasSuffix("example.com/\(Self.name)") })
            #expect(!problems.contains { $0.message.contains("com.secret.app") })
        } else {
            #expect(problems.isEmpty)
            #expect(served.map { Data($0) } == Data(Self.good.utf8))
        }
        #expect(snapshot.table.content(named: "good.example") != nil)
    }

    @Test("a FIFO in place of a file is refused at once, not waited on")
    func fifoIsRefused() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/good.example/\(Self.name)", Self.good)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("sites/example.com"), withIntermediateDirectories: true)
        #expect(mkfifo(folder.url.appendingPathComponent("sites/example.com/\(Self.name)").path, 0o644) == 0)
        // The real binary, with a deadline: a read that blocked on the FIFO fails the test
        // instead of hanging it.
        for command in [["validate", "sites"], ["serve", "--sites", "sites", "--http", "127.0.0.1:0"]] {
            let output = try BinaryRunner.run(command, in: folder.url, timeout: 15)
            #expect(output.status != 0)
            #expect((output.stdout + output.stderr).contains("example.com/\(Self.name): error: not a regular file"))
        }
    }

    @Test("the real server refuses a site whose file links outside its folder, at start and on reload")
    func serverRefusesOutsideLink() throws {
        let folder = try TemporaryFolder()
        try folder.write("outside/secret.json", Self.secret)
        try folder.write("sites/example.com/\(Self.name)", Self.good)
        let secret = folder.url.appendingPathComponent("outside/secret.json").path
        try link(folder, "sites/linked.example/\(Self.name)", to: secret)
        let refused = try BinaryRunner.run(["serve", "--sites", "sites", "--http", "127.0.0.1:0"], in: folder.url)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("SITE005"))
        #expect(refused.stderr.contains("linked.example"))

        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("sites/linked.example"))
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1"])
        defer { _ = server.stop() }
        let url = "http://127.0.0.1:\(server.port)/.well-known/apple-app-site-association"
        #expect(try Curl.request(url, ["-H", "Host: example.com"]).body == Data(Self.good.utf8))
        // The file is replaced by a link to the secret file, as a rename would.
        let file = folder.url.appendingPathComponent("sites/example.com/\(Self.name)").path
        try link(folder, "sites/example.com/new", to: secret)
        #expect(rename(folder.url.appendingPathComponent("sites/example.com/new").path, file) == 0)
        server.signal(SIGHUP)
        #expect(eventually(10) { server.errors.contains("SITE005") })
        #expect(try Curl.request(url, ["-H", "Host: example.com"]).body == Data(Self.good.utf8))
    }
}
