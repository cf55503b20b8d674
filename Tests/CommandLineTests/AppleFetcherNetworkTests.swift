import Foundation
import TestSupport
import Testing

/// Whether a fetch by a client naming Apple's fetcher came from a network configured as
/// Apple's, behind a trusted proxy or not.
@Suite("Apple's fetcher networks")
struct AppleFetcherNetworkTests {
    private func lastFetch(_ server: RunningServer) throws -> [String: Any]? {
        let admin = try #require(server.adminPort)
        let body = try Curl.request("http://127.0.0.1:\(admin)/sites.json").body
        let document = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let site = try #require((document["sites"] as? [[String: Any]])?.first)
        return (site["cdn"] as? [String: Any])?["lastAppleFetch"] as? [String: Any]
    }

    private func statusPage(_ server: RunningServer) throws -> String {
        let admin = try #require(server.adminPort)
        return String(decoding: try Curl.request("http://127.0.0.1:\(admin)/").body, as: UTF8.self)
    }

    private func fetch(_ server: RunningServer, forwardedFor: String? = nil) throws {
        let forwarded = forwardedFor.map { ["-H", "X-Forwarded-For: \($0)"] } ?? []
        let answer = try Curl.request(
            "http://127.0.0.1:\(server.port)/.well-known/apple-app-site-association",
            ["-H", "Host: example.com", "-A", "AASA-Bot/1.0.0"] + forwarded)
        #expect(answer.status == 200)
    }

    private func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            "sites/example.com/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        return folder
    }

    @Test("from 127.0.0.1 with --apple-fetcher-network 127.0.0.0/8: verified; without: identified as")
    func verified() throws {
        let folder = try folder()
        let plain = try RunningServer(in: folder.url, ["--sites", "sites"])
        defer { _ = plain.stop() }
        try fetch(plain)
        #expect(try lastFetch(plain)?["verified"] as? Bool == false)
        #expect(try statusPage(plain).contains("a client that identified as Apple's fetcher fetched example.com"))
        let apple = try RunningServer(in: folder.url, ["--sites", "sites", "--apple-fetcher-network", "127.0.0.0/8"])
        defer { _ = apple.stop() }
        try fetch(apple)
        #expect(try lastFetch(apple)?["verified"] as? Bool == true)
        #expect(!(try statusPage(apple).contains("identified as")))
    }

    @Test("X-Forwarded-For: ignored from an untrusted peer, its last address used from a trusted proxy")
    func forwardedFor() throws {
        let folder = try folder()
        // Apple's network here is 17.0.0.0/8; the peer is always 127.0.0.1.
        let untrusted = try RunningServer(
            in: folder.url, ["--sites", "sites", "--apple-fetcher-network", "17.0.0.0/8"])
        defer { _ = untrusted.stop() }
        try fetch(untrusted, forwardedFor: "17.1.2.3")
        #expect(try lastFetch(untrusted)?["verified"] as? Bool == false)
        let trusted = try RunningServer(
            in: folder.url,
            ["--sites", "sites", "--apple-fetcher-network", "17.0.0.0/8", "--trusted-proxy", "127.0.0.1"],
            environment: ["AASA_TRUSTED_PROXIES": "192.0.2.1"])
        defer { _ = trusted.stop() }
        try fetch(trusted, forwardedFor: "17.1.2.3")
        #expect(try lastFetch(trusted)?["verified"] as? Bool == true)
        // The proxy appends the peer it saw; what the client wrote before it proves nothing.
        try fetch(trusted, forwardedFor: "17.1.2.3, 198.51.100.4")
        #expect(try lastFetch(trusted)?["verified"] as? Bool == false)
        try fetch(trusted, forwardedFor: "198.51.100.4,17.9.9.9 ")
        #expect(try lastFetch(trusted)?["verified"] as? Bool == true)
    }
}
