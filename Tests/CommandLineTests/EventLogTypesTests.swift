import Foundation
import TestSupport
import Testing

/// What a log shipper reads from a real server: one line per event, JSON values typed.
@Suite("event log types")
struct EventLogTypesTests {
    private func sites() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            "sites/good.test/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        try folder.write("sites/bad.test/apple-app-site-association", SiteFixtures.trailingCommaAASA)
        return folder
    }

    @Test("JSON events: numbers as numbers, diagnostics as an array of objects")
    func json() throws {
        let folder = try sites()
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--invalid-sites", "skip", "--log-format", "json"])
        #expect(server.stop() == 0)
        let events = try server.errors.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let listening = try #require(events.first { ($0["message"] as? String)?.hasPrefix("listening on") == true })
        // Sites are site folders in any state (docs/serving.md, "Counting sites"): both.
        #expect(listening["loops"] is Int && listening["sites"] as? Int == 2, "\(listening)")
        let report = try #require(events.first { $0["reason"] as? String == "start-up" }, "\(server.errors)")
        #expect(report["folders_read"] as? Int == 2, "\(report)")
        #expect(report["sites"] as? Int == 2 && report["aliases"] as? Int == 0, "\(report)")
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]], "\(report)")
        #expect(diagnostics.count == 2)
        let first = try #require(diagnostics.first { $0["severity"] as? String == "error" })
        #expect(first["line"] as? Int == 2 && first["column"] as? Int == 29, "\(first)")
        #expect(first["severity"] as? String == "error" && first["code"] is String && first["message"] is String)
        #expect((first["file"] as? String)?.hasSuffix("bad.test/apple-app-site-association") == true)
        #expect(first["pointer"] is String)
    }

    @Test("text events: one line each, diagnostics on the event's line with their count")
    func text() throws {
        let folder = try sites()
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--invalid-sites", "skip"])
        #expect(server.stop() == 0)
        let stamp = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (info|warning|error|critical|notice|debug) /#
        let lines = server.errors.split(separator: "\n")
        // Start-up's own diagnostics are in the `validate` format; every other line is an event.
        let events = lines.filter { !$0.contains("/apple-app-site-association:") || $0.firstMatch(of: stamp) != nil }
        #expect(events.allSatisfy { $0.firstMatch(of: stamp) != nil }, "\(server.errors)")
        let report = try #require(events.first { $0.contains("reason=start-up") })
        #expect(report.contains(#"diagnostics="2: code=AASA101 column=15 file="#), "\(report)")
    }
}
