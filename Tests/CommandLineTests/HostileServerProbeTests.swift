import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// `probe` against a server that answers the way broken and hostile servers do
/// (`Tests/Peers/hostile-https-server.py`): it reports each with a clear line, exits 1 within
/// its timeout, and never crashes.
@Suite("aasa-server probe against a hostile server", .serialized)
final class HostileServerProbeTests {
    static let names = [
        "bad-status.test", "endless-headers.test", "endless-body.test", "endless-chunks.test", "negative-chunk.test",
        "huge-chunk.test", "overflow-chunk.test", "negative-length.test", "huge-length.test", "truncated.test",
        "gzip-bomb.test", "slow-drip.test", "silent.test", "long-chunk-lines.test", "drip-chunks.test",
    ]

    let folder: TemporaryFolder
    let certificates: TestCertificates
    let server = Process()
    let port: Int

    init() throws {
        folder = try TemporaryFolder()
        certificates = try TestCertificates(in: folder)
        try certificates.issue("hostile", names: Self.names)
        let certificate = certificates.directory.appendingPathComponent("hostile")
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = [
            "python3", BinaryRunner.packageRoot.appendingPathComponent("Tests/Peers/hostile-https-server.py").path,
            certificate.appendingPathComponent("fullchain.pem").path,
            certificate.appendingPathComponent("privkey.pem").path,
        ]
        let output = Pipe()
        server.standardOutput = output
        server.standardInput = Pipe()
        try server.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            server.terminate()
            throw RunningServer.StartFailure(description: "the hostile server did not start: \(line)")
        }
        self.port = port
    }

    deinit {
        if server.isRunning { kill(server.processIdentifier, SIGKILL) }
    }

    @Test(
        "each hostile answer is a clear failure within the timeout, never a crash",
        arguments: [
            ("bad-status.test", "fail  apple-app-site-association: not an HTTP/1.x status line: \"HTCPCP/1.0 418"),
            ("endless-headers.test", "fail  apple-app-site-association: the response head is over 64 KiB"),
            ("endless-body.test", "fail  apple-app-site-association: the body is over the 256 KiB read at most"),
            (
                "endless-chunks.test",
                "fail  apple-app-site-association: the chunked body is over the 256 KiB read at most"
            ),
            ("negative-chunk.test", "fail  apple-app-site-association: malformed chunk size \"-2\""),
            ("huge-chunk.test", "fail  apple-app-site-association: malformed chunk size \"7fffffffffffffff\""),
            (
                "overflow-chunk.test",
                "fail  apple-app-site-association: malformed chunk size \"fffffffffffffffffffffffff\""
            ),
            ("negative-length.test", "fail  apple-app-site-association: invalid Content-Length \"-9\""),
            (
                "huge-length.test",
                "fail  apple-app-site-association: invalid Content-Length \"99999999999999999999999\""
            ),
            ("truncated.test", "fail  apple-app-site-association: the body ended after 11 of 100 bytes"),
            (
                "gzip-bomb.test",
                "fail  apple-app-site-association: the gzip body does not decompress: it inflates past 256 KiB"
            ),
            ("slow-drip.test", "fail  apple-app-site-association: the response did not finish within 2 s"),
            ("silent.test", "fail  apple-app-site-association: no HTTP answer within 2 s"),
            (
                "long-chunk-lines.test",
                "fail  apple-app-site-association: the response is over 384 KiB on the wire (head, body and framing"
            ),
            ("drip-chunks.test", "fail  apple-app-site-association: the response did not finish within 2 s"),
        ])
    func hostileAnswer(_ name: String, _ expected: String) throws {
        let started = Date()
        let output = try BinaryRunner.run(
            ["probe", "--cacert", certificates.caFile, "--connect-to", "127.0.0.1:\(port)", "--timeout", "2", name])
        let elapsed = Date().timeIntervalSince(started)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("pass  tls: "), "\(output.stdout)")
        #expect(output.stdout.contains(expected), "\(output.stdout)")
        // Three steps (connect, handshake, response) each have the timeout; only one is slow here.
        #expect(elapsed < 4, "\(name) took \(elapsed) s")
    }
}
