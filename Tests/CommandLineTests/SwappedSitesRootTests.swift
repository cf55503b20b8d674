import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// `--sites` as the symbolic link a deploy swaps in one rename (`current -> releases/N`,
/// git-sync's `current -> .worktrees/HASH`): the swap is noticed as a file change is, without
/// SIGHUP (docs/sites.md, "Sites layout").
@Suite("a swapped sites root")
struct SwappedSitesRootTests {
    static func file(_ app: String) -> String { SiteFixtures.oneAppAASA(app) }

    static func served(_ server: RunningServer, host: String = "example.com") throws -> String {
        try ServedApp.served(server, host: host)
    }

    static func metrics(_ server: RunningServer) throws -> String {
        let port = try #require(server.adminPort)
        return String(decoding: try Curl.request("http://127.0.0.1:\(port)/metrics").body, as: UTF8.self)
    }

    /// Points the link `name` in `folder` at `target` the way deploy tools do: a new link
    /// renamed over the old one (rename(2) is atomic), never a moment without it.
    static func swap(_ folder: URL, _ name: String, to target: String) {
        let temporary = folder.appendingPathComponent(".\(name).next").path
        #expect(symlink(target, temporary) == 0)
        #expect(rename(temporary, folder.appendingPathComponent(name).path) == 0)
    }

    /// Seconds until `condition` holds, polled every 20 ms up to `seconds`; nil when it never does.
    static func secondsUntil(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if try condition() { return Date().timeIntervalSince(start) }
            usleep(20_000)
        }
        return nil
    }

    @Test("current -> releases/N swapped by a rename serves the new release within a second; the old one may go")
    func releases() throws {
        let folder = try TemporaryFolder()
        try folder.write("releases/1/example.com/apple-app-site-association", Self.file("one"))
        try folder.write("releases/1/other.example/apple-app-site-association", Self.file("one"))
        #expect(symlink("releases/1", folder.url.appendingPathComponent("current").path) == 0)
        let server = try RunningServer(in: folder.url, ["--sites", "current"])
        defer { _ = server.stop() }
        #expect(try Self.served(server) == "one")

        try folder.write("releases/2/example.com/apple-app-site-association", Self.file("two"))
        try folder.write("releases/2/other.example/apple-app-site-association", Self.file("two"))
        Self.swap(folder.url, "current", to: "releases/2")
        let elapsed = try Self.secondsUntil(5) { try Self.served(server) == "two" }
        #expect(elapsed != nil && elapsed! < 1.5, "elapsed \(String(describing: elapsed))")

        // The old release deleted: nothing changes; a later change in the new one is still seen.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("releases/1"))
        try folder.write("releases/2/other.example/apple-app-site-association", Self.file("three"))
        #expect(try eventually(5) { try Self.served(server, host: "other.example") == "three" })
        #expect(try Self.served(server) == "two")
        let metrics = try Self.metrics(server)
        #expect(metrics.contains(#"aasa_reloads_total{result="failed"} 0"#), "\(metrics)")
        #expect(metrics.contains(#"aasa_reloads_total{result="partial"} 0"#), "\(metrics)")
        #expect(!server.errors.contains("SIGHUP"), "\(server.errors)")
    }

    @Test("git-sync's layout: /git/current -> .worktrees/HASH; a broken release keeps the last good files")
    func gitSync() throws {
        let folder = try TemporaryFolder()
        let git = folder.url.appendingPathComponent("git")
        try folder.write("git/.worktrees/aaaa/example.com/apple-app-site-association", Self.file("one"))
        try folder.write("git/.worktrees/aaaa/README.md", "sites")
        Self.swap(git, "current", to: ".worktrees/aaaa")
        let server = try RunningServer(in: folder.url, ["--sites", "git/current"])
        defer { _ = server.stop() }
        #expect(try Self.served(server) == "one")

        try folder.write("git/.worktrees/bbbb/example.com/apple-app-site-association", Self.file("two"))
        Self.swap(git, "current", to: ".worktrees/bbbb")
        let elapsed = try Self.secondsUntil(5) { try Self.served(server) == "two" }
        #expect(elapsed != nil && elapsed! < 1.5, "elapsed \(String(describing: elapsed))")
        try FileManager.default.removeItem(at: git.appendingPathComponent(".worktrees/aaaa"))

        // A broken release: not JSON. The last good file keeps serving; the reload is not ok.
        try folder.write("git/.worktrees/cccc/example.com/apple-app-site-association", SiteFixtures.truncatedAASA)
        Self.swap(git, "current", to: ".worktrees/cccc")
        #expect(
            try eventually(5) {
                let metrics = try Self.metrics(server)
                return !metrics.contains(#"aasa_reloads_total{result="failed"} 0"#)
                    || !metrics.contains(#"aasa_reloads_total{result="partial"} 0"#)
            })
        #expect(try Self.served(server) == "two")
        try FileManager.default.removeItem(at: git.appendingPathComponent(".worktrees/bbbb"))

        // Fixed in the next release: served again.
        try folder.write("git/.worktrees/dddd/example.com/apple-app-site-association", Self.file("four"))
        Self.swap(git, "current", to: ".worktrees/dddd")
        #expect(try eventually(5) { try Self.served(server) == "four" })
    }

    @Test("docker/kubernetes-git-sync.yaml's --sites /git/current/sites: a link on the path is followed too")
    func linkOnThePath() throws {
        let folder = try TemporaryFolder()
        let git = folder.url.appendingPathComponent("git")
        try folder.write("git/.worktrees/aaaa/sites/example.com/apple-app-site-association", Self.file("one"))
        try folder.write("git/.worktrees/aaaa/sites/example.com/site.json", #"{"aliases": ["go.example.com"]}"#)
        Self.swap(git, "current", to: ".worktrees/aaaa")
        let server = try RunningServer(in: folder.url, ["--sites", "git/current/sites"])
        defer { _ = server.stop() }
        #expect(try Self.served(server, host: "go.example.com") == "one")

        try folder.write("git/.worktrees/bbbb/sites/example.com/apple-app-site-association", Self.file("two"))
        try folder.write("git/.worktrees/bbbb/sites/example.com/site.json", #"{"aliases": ["www.example.com"]}"#)
        Self.swap(git, "current", to: ".worktrees/bbbb")
        let elapsed = try Self.secondsUntil(5) { try Self.served(server, host: "www.example.com") == "two" }
        #expect(elapsed != nil && elapsed! < 1.5, "elapsed \(String(describing: elapsed))")
        #expect(try Self.served(server, host: "go.example.com") == "404")
        try FileManager.default.removeItem(at: git.appendingPathComponent(".worktrees/aaaa"))
        #expect(try Self.served(server) == "two")
    }
}
