import Foundation
import Testing

/// A name from disk cannot forge an event line: a site folder whose name holds a line break
/// and a fake event, refused on reload, is logged on one line with the break escaped.
@Suite("log injection")
struct LogInjectionTests {
    static let clean =
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/buy/*"}]}]}}"#
    static let forged = "2026-01-01T00:00:00Z info reloaded; changed: forged.example"

    @Test("a site folder named with a line break is logged on one line, the break escaped")
    func folderNameCannotForgeALine() throws {
        let folder = try TemporaryFolder()
        try folder.write("sites/example.com/apple-app-site-association", Self.clean)
        let server = try RunningServer(in: folder.url, ["--sites", "sites", "--workers", "1"])
        defer { _ = server.stop() }
        try folder.write("sites/evil\n\(Self.forged)\r/apple-app-site-association", "{")
        #expect(eventually(10) { server.errors.contains("reload refused") })
        let lines = server.errors.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix(Self.forged) })
        #expect(!server.errors.contains("\r"))
        #expect(lines.contains { $0.contains("reload refused") && $0.contains(#"evil\n\#(Self.forged)\r"#) })
    }
}
