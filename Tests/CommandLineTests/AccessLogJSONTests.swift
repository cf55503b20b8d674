import Foundation
import TestSupport
import Testing

/// The JSON access log of the real server reads back as the text the client sent: UTF-8 as
/// UTF-8 (é, and a scalar outside the Basic Multilingual Plane), bytes that are not UTF-8
/// as U+FFFD (RFC 8259 §8.1), never `\u00HH` per byte. A path is ASCII (raw bytes above 0x7F
/// in a target are refused, RFC 9112 §3), so its UTF-8 comes percent-encoded.
@Suite("access log as JSON")
struct AccessLogJSONTests {
    static let agents: [(sent: [UInt8], logged: String)] = [
        (Array("Café-Bot/1.0".utf8), "Café-Bot/1.0"),
        (Array("Bot 😀/2".utf8), "Bot 😀/2"),
        ([0x42, 0xFF, 0x43, 0xC3], "B\u{FFFD}C\u{FFFD}"),
    ]

    @Test("User-Agent and path decode to what was sent")
    func decodesToInput() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "sites/example.com/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--log-format", "json"])
        defer { _ = server.stop() }
        for (index, agent) in Self.agents.enumerated() {
            let client = try RawClient(port: server.port)
            client.send(
                Array(
                    "GET /%C3%A9/%F0%9F%98%80/\(index) HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n"
                        .utf8) + Array("User-Agent: ".utf8)
                    + agent.sent + Array("\r\n\r\n".utf8))
            _ = client.readAll()
        }
        var lines: [[String: Any]] = []
        _ = try eventually(5) {
            lines = try server.accessLog.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
            return lines.count >= Self.agents.count
        }
        #expect(lines.count == Self.agents.count, "\(server.accessLog)")
        for (index, agent) in Self.agents.enumerated() {
            let line = lines.first { ($0["path"] as? String)?.hasSuffix("/\(index)") == true }
            #expect(line?["user_agent"] as? String == agent.logged, "\(server.accessLog)")
            #expect(line?["path"] as? String == "/%C3%A9/%F0%9F%98%80/\(index)", "\(server.accessLog)")
        }
        #expect(!server.accessLog.contains("\\u00"), "\(server.accessLog)")
    }
}
