import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// A stranger naming many customers' names at once (all are public) queues at most its share of
/// certificate loads (docs/security.md, "Work a stranger can queue"): the real binary with 160
/// certificates, 160 ClientHellos each naming another one sent at once from 127.0.0.1, then in
/// the same burst one from 127.0.0.2 whose load is queued, not refused, and a real client from
/// 127.0.0.2 whose certificate is loaded next, not behind the flood.
@Suite("aasa-server serve: the certificate loader under a flood of names", .serialized)
struct CertificateLoaderFloodTests {
    static let count = 160

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `names` each with a certificate of its own in `certs/NAME/` (self-signed with one
    /// shared key: only the loads matter here, openssl req -x509, 8 at a time).
    static func certificates(_ names: [String], in folder: TemporaryFolder) throws {
        let certs = folder.url.appendingPathComponent("certs")
        try FileManager.default.createDirectory(at: certs, withIntermediateDirectories: true)
        let key = certs.appendingPathComponent("shared-key.pem").path
        _ = try TestCertificates.openssl([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key,
        ])
        for start in stride(from: 0, to: names.count, by: 8) {
            let batch = try names[start..<min(start + 8, names.count)].map { name -> Process in
                let target = certs.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: key, toPath: target.appendingPathComponent("privkey.pem").path)
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [
                    "openssl", "req", "-x509", "-key", key, "-subj", "/CN=\(name)", "-addext",
                    "subjectAltName=DNS:\(name)", "-days", "30", "-out",
                    target.appendingPathComponent("fullchain.pem").path,
                ]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                return process
            }
            for process in batch {
                process.waitUntilExit()
                try #require(process.terminationStatus == 0)
            }
        }
        try FileManager.default.removeItem(atPath: key)
    }

    static func metric(_ text: String, _ series: String) -> Int {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap {
            Double($0.dropFirst(series.count + 1))
        }.map { Int($0) } ?? 0
    }

    /// One captured ClientHello sent on each descriptor in turn, its server name replaced by
    /// that descriptor's name (every name as long as the first).
    static func sendClientHellos(_ names: [String], over descriptors: [Int32]) throws {
        let hello = try HalfOpenFlood.captureClientHello(serverName: names[0])
        let template = Array(names[0].utf8)
        let at = try #require(
            (0...(hello.count - template.count)).first { Array(hello[$0..<($0 + template.count)]) == template })
        for (fd, name) in zip(descriptors, names) {
            var bytes = hello
            bytes.replaceSubrange(at..<(at + template.count), with: Array(name.utf8))
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// The type of the first TLS record the server sends on `fd` (10 s at most).
    static func firstRecordType(_ fd: Int32) throws -> UInt8 {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        while true {
            let got = recv(fd, &byte, 1, 0)
            if got == 1 { return byte }
            guard got < 0 && errno == EINTR else {
                throw Failure(description: "no answer to the ClientHello (\(got), errno \(errno))")
            }
        }
    }

    @Test("160 names at once from one address: 32 queued, the rest refused and counted; another client served next")
    func flood() throws {
        let folder = try TemporaryFolder()
        let names = (0..<Self.count).map { String(format: "n%03d.flood.test", $0) }
        let real = "real.flood.test"
        try Self.certificates(names + [real], in: folder)
        try folder.write("sites/\(real)/apple-app-site-association", ProbeTests.apple)
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--access-log", "off"])
        defer { _ = server.stop() }
        let range = try #require(server.errors.range(of: "info listening on https://127.0.0.1:"))
        let port = try #require(Int(server.errors[range.upperBound...].prefix { $0.isNumber }))
        let admin = try #require(server.adminPort)
        func metrics() throws -> String {
            String(decoding: try Curl.request("http://127.0.0.1:\(admin)/metrics").body, as: UTF8.self)
        }

        // Every connection first, then every ClientHello in one burst: the loop reads them in one turn.
        let descriptors =
            try names.map { _ in try LoopbackSocket.connect(port: port) }
            + [LoopbackSocket.connect(port: port, from: "127.0.0.2")]
        defer { for fd in descriptors { close(fd) } }
        try Self.sendClientHellos(names + [real], over: descriptors)
        // Another address's share is its own: the handshake goes on (a handshake record), where
        // a refused one gets an alert (21).
        #expect(try Self.firstRecordType(try #require(descriptors.last)) == 22)
        let refused = "aasa_certificate_loads_refused_total"
        #expect(try eventually(10) { Self.metric(try metrics(), refused) > 0 })
        // The real client, from another address, while the flood's loads are still going.
        let started = Date()
        let answer = try Curl.request(
            "https://\(real):\(port)/.well-known/apple-app-site-association",
            ["--interface", "127.0.0.2", "--resolve", "\(real):\(port):127.0.0.1", "-k", "-m", "5"])
        let took = Date().timeIntervalSince(started)
        #expect(answer.status == 200)
        let text = try metrics()
        let loads = Self.metric(text, "aasa_certificate_loads_total")
        print(
            "certificate loader flood: \(Self.count) names from one address, \(Self.metric(text, refused)) refused, "
                + "\(loads) loaded; the real client served in \(String(format: "%.3f", took)) s")
        // The flood's share and the real one, never all 160.
        #expect(Self.metric(text, refused) >= Self.count - 32 - loads)
        #expect(try eventually(10) { Self.metric(try metrics(), "aasa_certificate_loads_queued") == 0 })
    }
}
