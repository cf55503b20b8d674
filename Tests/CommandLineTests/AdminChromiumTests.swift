import Foundation
import TestSupport
import Testing

/// No markup from input runs on the status page, in a real browser: payloads that hide a
/// quote or a `<` in a grapheme cluster (a combining mark after it, U+0600 before it), given in
/// the query (reflected) or in a site's file (stored, shown in its diagnostics). Each payload
/// sets the document's title if it runs; the DOM is dumped after the page had time to run it.
@Suite("status page payloads in Chromium", .serialized)
final class AdminChromiumTests {
    /// An unknown service key in a site's file: its name is shown in the diagnostics.
    static let storedKey = "\u{600}<img src=x onerror=\(Chromium.effect)>"

    /// A clean site for the reflected payloads: a stored one would show on every page.
    let folder: TemporaryFolder
    let server: RunningServer

    init() throws {
        folder = try TemporaryFolder()
        try folder.write(
            "sites/example.com/apple-app-site-association",
            SiteFixtures.oneAppAASA(path: "/buy/*")
        )
        server = try RunningServer(in: folder.url, ["--sites", "sites"])
    }

    deinit {
        _ = server.stop()
    }

    func dom(_ query: String, of server: RunningServer) throws -> String {
        try Chromium.dom("http://127.0.0.1:\(try #require(server.adminPort))/" + query)
    }

    static let reflected: [String] = [
        "?url=" + Chromium.encoded("x\"\u{301} autofocus onfocus=\(Chromium.effect) y"),
        "?q=" + Chromium.encoded("x\"\u{301} autofocus onfocus=\(Chromium.effect) y"),
        "?q=" + Chromium.encoded("\u{600}<img src=x onerror=\(Chromium.effect)>"),
        "?url=" + Chromium.encoded("\u{600}<img src=x onerror=\(Chromium.effect)>"),
    ]

    @Test("reflected payloads stay text", arguments: reflected)
    func reflectedPayload(query: String) throws {
        let dom = try dom(query, of: server)
        #expect(dom.contains("<title>aasa-server status</title>"), "the page loaded: \(dom.prefix(300))")
        #expect(!dom.contains("<title>pwned"), "the payload ran")
        #expect(!dom.contains("onfocus=\""), "an attribute was injected")
        #expect(!dom.contains("<img"), "an element was injected")
    }

    @Test("a stored payload (an unknown key in a site's file) stays text in the diagnostics")
    func storedPayload() throws {
        let stored = try TemporaryFolder()
        try stored.write(
            "sites/example.com/apple-app-site-association",
            #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}, "#
                + "\"\(Self.storedKey)\": {}, \"x\\\"\u{301} autofocus onfocus=\(Chromium.effect) y\": {}}")
        let server = try RunningServer(in: stored.url, ["--sites", "sites"])
        defer { _ = server.stop() }
        let dom = try dom("?q=example.com", of: server)
        #expect(dom.contains("<title>aasa-server status</title>"), "the page loaded: \(dom.prefix(300))")
        #expect(dom.contains("AASA004"), "the unknown key is shown")
        #expect(dom.contains("\u{600}&lt;img src=x onerror="), "shown as text")
        #expect(!dom.contains("<title>pwned"), "the payload ran")
        #expect(!dom.contains("<img"), "an element was injected")
    }
}
