import AASALoop
import Testing

@testable import AASAServer

/// `maxConnections` and `maxHandshakes` from the config file and the environment, and how
/// the totals are shared out among the loops (docs/security.md, "Connections and handshakes
/// in total").
@Suite("connection and handshake cap settings")
struct ConnectionCapSettingsTests {
    @Test("defaults, the config file and the environment; out of range is refused")
    func sources() throws {
        var settings = ServerConfiguration()
        #expect(settings.maxConnections == 3_000 && settings.maxHandshakes == 1_000)
        try settings.applyFile(
            contents: Array(#"{"maxConnections": 500, "maxHandshakes": 100}"#.utf8), path: "/etc/aasa/aasa-server.json")
        #expect(settings.maxConnections == 500 && settings.maxHandshakes == 100)
        try settings.applyEnvironment(["AASA_MAX_CONNECTIONS": "40000", "AASA_MAX_HANDSHAKES": "8000"])
        #expect(settings.maxConnections == 40_000 && settings.maxHandshakes == 8_000)
        for (key, value) in [
            ("AASA_MAX_CONNECTIONS", "0"), ("AASA_MAX_HANDSHAKES", "-1"), ("AASA_MAX_HANDSHAKES", "x"),
        ] {
            #expect(throws: ServerConfiguration.Problem.self) { try settings.applyEnvironment([key: value]) }
        }
    }

    @Test(
        "each loop's share: the total split, the remainder to the first loops, at least one each",
        arguments: [(50, 2, [25, 25]), (7, 3, [3, 2, 2]), (2, 4, [1, 1, 1, 1]), (1_000, 1, [1_000])])
    func shares(total: Int, loops: Int, expected: [Int]) {
        let shares = (0..<loops).map { LoopSettings.share(of: total, loop: $0, loops: loops) }
        #expect(shares == expected)
    }
}
