import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// Site and certificate folders past inotify's watch limit are reported alike: the log, the
/// status page and `aasa_unwatched_folders{kind}` (docs/serving.md, "Many sites"). The server
/// runs in a user namespace of its own (unshare(1) `--user --map-root-user`) whose
/// `/proc/sys/user/max_inotify_watches` (per user namespace since Linux 5.11,
/// user_namespaces(7)) is set low: the machine's own limit and every other process's watches
/// stay as they are, and no test-only knob in the server pretends a failure.
@Suite("aasa-server serve: folders past inotify's watch limit")
struct UnwatchedFoldersTests {
    /// Whether this machine lets a process set a user namespace's inotify limit.
    static let namespaceWorks: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = [
            "--user", "--map-root-user", "/bin/sh", "-c", "echo 5 > /proc/sys/user/max_inotify_watches",
        ]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Three sites and four certificates (`certs/` also holds the test CA's `ca/`: six
    /// certificate folders with the folder itself).
    func fixture() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        for index in 0..<3 {
            try folder.write("sites/shop\(index).test/apple-app-site-association", TLSTests.wild)
        }
        for index in 0..<4 { try certificates.issue("shop\(index).test", names: ["shop\(index).test"]) }
        return folder
    }

    func unwatched(_ server: RunningServer, _ kind: String) throws -> Int? {
        let admin = try #require(server.adminPort)
        let text = String(decoding: try Curl.request("http://127.0.0.1:\(admin)/metrics").body, as: UTF8.self)
        let series = "aasa_unwatched_folders{kind=\"\(kind)\"} "
        return text.split(separator: "\n").first { $0.hasPrefix(series) }
            .flatMap { Double($0.dropFirst(series.count)) }.map { Int($0) }
    }

    func page(_ server: RunningServer) throws -> String {
        let admin = try #require(server.adminPort)
        return String(decoding: try Curl.request("http://127.0.0.1:\(admin)/").body, as: UTF8.self)
    }

    /// How many `kind` folders ("site", "certificate") the log says are not watched.
    func logged(_ server: RunningServer, _ kind: String) -> Int {
        guard let range = server.errors.range(of: " \(kind) folders are not watched") else { return 0 }
        let before = server.errors[..<range.lowerBound]
        return Int(String(before.reversed().prefix { $0.isNumber }.reversed())) ?? -1
    }

    /// The first load watches site and certificate folders side by side as it reads them, so
    /// which folders are left past the limit depends on which thread came first; how many, and
    /// that the log, `/metrics` and the status page agree, does not.
    func expectUnwatched(_ server: RunningServer, total: Int) throws {
        let (sites, certificates) = (logged(server, "site"), logged(server, "certificate"))
        #expect(sites + certificates == total, "\(server.errors)")
        #expect(try unwatched(server, "sites") == sites)
        #expect(try unwatched(server, "certificates") == certificates)
        #expect(try page(server).contains("\(sites) site folders, \(certificates) certificate folders"))
    }

    @Test(
        "folders past the limit are counted and shown, certificate folders as site folders are",
        .enabled(if: namespaceWorks, "unshare --user cannot set max_inotify_watches here"))
    func certificateFolders() throws {
        let folder = try fixture()
        // 10 folders: the sites folder and its 3 sites, the certificates folder and 5 below it.
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0"], watchLimit: 6)
        defer { _ = server.stop() }
        try expectUnwatched(server, total: 4)
    }

    @Test(
        "with a limit of 3: the sites folder is watched first, 7 folders are not",
        .enabled(if: namespaceWorks, "unshare --user cannot set max_inotify_watches here"))
    func siteFolders() throws {
        let folder = try fixture()
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0"], watchLimit: 3)
        defer { _ = server.stop() }
        try expectUnwatched(server, total: 7)
        // The sites folder's own watch is set before the load: a new site folder is still seen.
        try folder.write("sites/new.test/apple-app-site-association", TLSTests.wild)
        #expect(eventually(10) { server.errors.contains("changed: new.test") }, "\(server.errors)")
        // The limit is the namespace's: this process still watches as many folders as before.
        #expect(try String(contentsOfFile: "/proc/sys/user/max_inotify_watches", encoding: .utf8) != "3\n")
    }

    @Test("without a limit of its own: what the metrics and the page say is what the log says")
    func unlimited() throws {
        let folder = try fixture()
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0"])
        defer { _ = server.stop() }
        // Usually 0 and 0; but the machine's limit is shared by every process of the user, and
        // another server watching 100,000 folders can reach it: the counts then follow the log.
        #expect(try unwatched(server, "sites") == logged(server, "site"))
        #expect(try unwatched(server, "certificates") == logged(server, "certificate"))
        let noted = logged(server, "site") + logged(server, "certificate") > 0
        #expect(try page(server).contains("id=\"unwatched\"") == noted)
    }
}
