import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// HTTPS with real certificates, curl and openssl s_client as a user checks a deployment.
@Suite("aasa-server serve over HTTPS", .serialized)
final class TLSTests {
    static let apple =
        SiteFixtures.oneAppAASA(path: "/buy/*")
    static let wild = #"{"webcredentials": {"apps": ["ABCDE12345.com.example.wild"]}}"#

    let folder: TemporaryFolder
    let certificates: TestCertificates
    let server: RunningServer
    let securePort: Int

    init() throws {
        folder = try TemporaryFolder()
        try folder.write("sites/example.test/apple-app-site-association", Self.apple)
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("sites/www.example.test").path,
            withDestinationPath: "example.test")
        try folder.write("sites/*.wild.test/apple-app-site-association", Self.wild)
        certificates = try TestCertificates(in: folder)
        try certificates.issue("example.test", names: ["example.test", "www.example.test"])
        try certificates.issue("wild.test", names: ["*.wild.test"])
        try folder.write(
            "config.json",
            #"{"sites": "sites", "certs": "certs", "https": "127.0.0.1:0", "defaultCertificate": "example.test", "workers": 2, "timeouts": {"handshake": 2}}"#
        )
        server = try RunningServer(in: folder.url, ["--config", "config.json"])
        let text = server.errors
        let range = try #require(text.range(of: "info listening on https://127.0.0.1:"))
        securePort = try #require(Int(text[range.upperBound...].prefix { $0.isNumber }))
    }

    deinit {
        _ = server.stop()
    }

    func curl(_ host: String, _ path: String = "/.well-known/apple-app-site-association", _ options: [String] = [])
        throws -> Curl.Response
    {
        try Curl.request(
            "https://\(host):\(securePort)\(path)",
            ["--cacert", certificates.caFile, "--resolve", "\(host):\(securePort):127.0.0.1"] + options)
    }

    @Test("curl verifies two domains with two certificates, one of them a wildcard")
    func twoCertificates() throws {
        let exact = try curl("example.test")
        #expect(exact.status == 200)
        #expect(exact.body == Data(Self.apple.utf8))
        #expect(try curl("www.example.test", "/apple-app-site-association").body == Data(Self.apple.utf8))
        let wildcard = try curl("pr-3.wild.test")
        #expect(wildcard.status == 200)
        #expect(wildcard.body == Data(Self.wild.utf8))
    }

    @Test("openssl s_client: SNI picks the certificate, it verifies, and only TLS 1.2+ is spoken")
    func sClient() throws {
        let wildcard = try TestCertificates.openssl(
            [
                "s_client", "-connect", "127.0.0.1:\(securePort)", "-servername", "a.wild.test", "-CAfile",
                certificates.caFile, "-verify_return_error",
            ], input: "")
        #expect(wildcard.output.contains("CN = *.wild.test") || wildcard.output.contains("CN=*.wild.test"))
        #expect(wildcard.output.contains("Verify return code: 0 (ok)"))
        let noSNI = try TestCertificates.openssl(
            ["s_client", "-connect", "127.0.0.1:\(securePort)", "-noservername", "-CAfile", certificates.caFile],
            input: "")
        #expect(noSNI.output.contains("CN = example.test") || noSNI.output.contains("CN=example.test"))
        let tls12 = try TestCertificates.openssl(
            ["s_client", "-connect", "127.0.0.1:\(securePort)", "-servername", "example.test", "-tls1_2"], input: "")
        #expect(tls12.output.contains("TLSv1.2"))
        let tls11 = try TestCertificates.openssl(
            ["s_client", "-connect", "127.0.0.1:\(securePort)", "-servername", "example.test", "-tls1_1"], input: "")
        #expect(tls11.status != 0)
        #expect(tls11.output.contains("protocol version"))
        let alpn = try TestCertificates.openssl(
            ["s_client", "-connect", "127.0.0.1:\(securePort)", "-servername", "example.test", "-alpn", "h2,http/1.1"],
            input: "")
        #expect(alpn.output.contains("ALPN protocol: http/1.1"))
    }

    @Test("key exchange: X25519, P-256 and P-384 only (Mozilla intermediate)")
    func groups() throws {
        // TLS 1.3, where the groups offered concern the key exchange alone (in TLS 1.2 they
        // also name the curves the client accepts for the ECDSA certificate, RFC 8422 §5.1).
        func handshake(_ groups: String, _ version: String = "-tls1_3") throws -> (status: Int32, output: String) {
            try TestCertificates.openssl(
                [
                    "s_client", "-connect", "127.0.0.1:\(securePort)", "-servername", "example.test", version,
                    "-groups", groups,
                ], input: "")
        }
        for group in ["X25519", "P-256", "P-384"] {
            #expect(try handshake(group).status == 0, "\(group) refused")
        }
        for group in ["X448", "P-521", "ffdhe2048", "ffdhe8192"] {
            #expect(try handshake(group).status != 0, "\(group) accepted")
        }
        #expect(try handshake("X25519:P-256", "-tls1_2").output.contains("Server Temp Key: X25519"))
    }

    @Test("plain HTTP on the HTTPS port gets a clear-text 400 saying so, then a close; logged like every answer")
    func plainHTTPOnHTTPSPort() throws {
        let client = try RawClient(port: securePort, receiveTimeout: 5)
        client.send("GET /.well-known/apple-app-site-association HTTP/1.1\r\nHost: example.test\r\n\r\n")
        let answer = client.readAll()
        let text = String(decoding: answer.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(text)")
        #expect(text.contains("this port speaks HTTPS"))
        #expect(text.contains("Connection: close\r\n"))
        #expect(answer.closedByServer)
        // The loop finishes it as it finishes every answer: an access-log line with its
        // status and body size, and no request to show (none was read).
        let body = text.components(separatedBy: "\r\n\r\n").last ?? ""
        let line = " HTTP/1.1\" 400 \(body.utf8.count) "
        #expect(eventually(5) { server.accessLog.contains(line) }, "\(server.accessLog)")
        #expect(try Curl.request("http://127.0.0.1:\(securePort)/.well-known/apple-app-site-association").status == 400)
        #expect(try curl("example.test").status == 200)
    }

    @Test("50 silent clients do not delay a normal client; garbage and plain HTTP do not disturb the server")
    func silentAndHostileClients() throws {
        var silent: [RawClient] = []
        for _ in 0..<50 { silent.append(try RawClient(port: securePort, receiveTimeout: 1)) }
        // TLS handshakes that start and stall (a ClientHello fragment) hold a loop slot too.
        for client in silent.prefix(10) { client.send([0x16, 0x03, 0x01, 0x00]) }
        let started = Date()
        #expect(try curl("example.test").status == 200)
        #expect(Date().timeIntervalSince(started) < 2)
        // Random bytes that look like the start of an SSLv2-style record make OpenSSL wait for
        // more; the handshake deadline (2 s) then closes the connection.
        let garbage = try RawClient(port: securePort, receiveTimeout: 6)
        garbage.send((0..<512).map { _ in UInt8.random(in: 0...255) })
        #expect(garbage.readAll().closedByServer)
        let plain = try RawClient.exchange(
            port: securePort, "GET /apple-app-site-association HTTP/1.1\r\nHost: example.test\r\n\r\n", timeout: 3)
        #expect(!plain.contains("applinks"))
        #expect(try curl("example.test").status == 200)
        // A stalled handshake is closed at its deadline (2 s here).
        let stalled = try RawClient(port: securePort, receiveTimeout: 5)
        stalled.send([0x16, 0x03, 0x01])
        let waited = Date()
        #expect(stalled.readAll().closedByServer)
        #expect(Date().timeIntervalSince(waited) < 4.5)
        silent.removeAll()
    }

    @Test("a certificate replaced on disk is presented to new clients")
    func certificateReload() throws {
        #expect(throws: (any Error).self) { try self.curl("new.example.test") }
        try certificates.issue("example.test", names: ["example.test", "www.example.test", "new.example.test"])
        let deadline = Date().addingTimeInterval(5)
        var answered: Int?
        while Date() < deadline && answered == nil {
            answered = try? curl("new.example.test").status
            if answered == nil { usleep(100_000) }
        }
        // The new certificate verifies for the new name; no site serves it, hence 404.
        #expect(answered == 404)
        #expect(try curl("example.test").status == 200)
    }

    @Test("keep-alive and pipelining work over TLS")
    func keepAlive() throws {
        let response = try curl("example.test", "/.well-known/apple-app-site-association", ["--compressed"])
        #expect(response.status == 200)
        #expect(response.body == Data(Self.apple.utf8))
        // Two URLs in one curl run share the connection.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let url = "https://example.test:\(securePort)/apple-app-site-association"
        process.arguments = [
            "curl", "-sS", "-v", "-o", "/dev/null", "-o", "/dev/null", "--cacert", certificates.caFile, "--resolve",
            "example.test:\(securePort):127.0.0.1", url, url,
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(log.contains("Re-using existing connection") || log.contains("Reusing existing"))
    }
}

extension TLSTests {
    @Test("pipelined requests over TLS, in records sent back to back and in one record, are all answered")
    func pipelining() throws {
        // Records that arrive together sit in OpenSSL's read-ahead buffer after the first is
        // read; were they left there, no new epoll edge would come and the client would hang
        // (its socket timeout fails the script).
        let script = """
            client = connect()
            for _ in range(40):
                client.sendall(request)
            client.sendall(request * 40)
            received = b""
            while received.count(b"HTTP/1.1 200 OK") < 80:
                chunk = client.recv(65536)
                if not chunk:
                    break
                received += chunk
            print(received.count(b"HTTP/1.1 200 OK"))
            """
        #expect(try runClient(script) == "80")
    }

    @Test("a connection idle past the buffer hold (its TLS buffers freed) is served again")
    func idleConnectionReusesReleasedBuffers() throws {
        // The pause is the stimulus, not a wait for the server: an idle TLS connection gives
        // OpenSSL's buffers back after 100 ms, and the next request must find new ones.
        let script = """
            client = connect()
            answered = 0
            for pause in [0, 0.3, 0.3]:
                time.sleep(pause)
                client.sendall(request)
                received = b""
                while not received.endswith(b"}"):
                    received += client.recv(65536)
                answered += received.count(b"HTTP/1.1 200 OK")
            print(answered)
            """
        #expect(try runClient(script) == "3")
    }

    @Test("a second connection resumes the first one's session (one TLS 1.3 ticket per handshake, from the cache)")
    func resumption() throws {
        let script = """
            session = None
            for attempt in range(2):
                client = connect(session)
                client.sendall(request[:-2] + b"Connection: close\\r\\n\\r\\n")
                while client.recv(65536):
                    pass
                print(client.version(), client.session_reused)
                session = client.session
                client.close()
            """
        #expect(try runClient(script) == "TLSv1.3 False\nTLSv1.3 True")
    }

    @Test(
        "openssl s_client -sess_out then -sess_in resumes, TLS 1.2 and 1.3, from the server's session cache",
        arguments: ["-tls1_2", "-tls1_3"])
    func sessionFiles(_ version: String) throws {
        let session = folder.url.appendingPathComponent("session\(version).pem").path
        let request = "GET /apple-app-site-association HTTP/1.1\r\nHost: example.test\r\nConnection: close\r\n\r\n"
        func connect(_ sessionOption: [String]) throws -> String {
            // -ign_eof: read until the server closes, so a TLS 1.3 ticket sent after the handshake is kept.
            try TestCertificates.openssl(
                [
                    "s_client", "-connect", "127.0.0.1:\(securePort)", "-servername", "example.test", "-CAfile",
                    certificates.caFile, version, "-ign_eof",
                ] + sessionOption, input: request
            ).output
        }
        let first = try connect(["-sess_out", session])
        #expect(first.contains("New, TLSv1"), "\(first)")
        #expect(first.contains("HTTP/1.1 200 OK"))
        let second = try connect(["-sess_in", session])
        #expect(second.contains("Reused, TLSv1"), "\(second)")
        #expect(second.contains("HTTP/1.1 200 OK"))
    }

    @Test("TLS 1.3: AES-128-GCM for a client that prefers AES-256 (OpenSSL's order), ChaCha20 for one that asks first")
    func suiteOrder() throws {
        func suite(_ options: [String]) throws -> String {
            let output = try TestCertificates.openssl(
                ["s_client", "-connect", "127.0.0.1:\(securePort)", "-servername", "example.test", "-tls1_3"]
                    + options, input: ""
            ).output
            return output.split(separator: "\n").first { $0.contains("Cipher is") }.map(String.init) ?? output
        }
        #expect(try suite([]).contains("TLS_AES_128_GCM_SHA256"))
        #expect(
            try suite(["-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256:TLS_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256"])
                .contains("TLS_CHACHA20_POLY1305_SHA256"))
        #expect(
            try suite(["-ciphersuites", "TLS_AES_256_GCM_SHA384"]).contains("TLS_AES_256_GCM_SHA384"))
    }

    @Test("a client with Nagle's algorithm on, sending its request apart from its handshake, is answered at once")
    func nagleClient() throws {
        // Each connection: handshake (full, then resumed), then the request in writes of its
        // own; a delayed ACK held against Nagle would show as ~40 ms on each of them (tcp(7)).
        let script = """
            slowest = 0.0
            times = []
            for version in (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3):
                context.maximum_version = version
                session = None
                for attempt in range(4):
                    raw = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
                    raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 0)
                    client = context.wrap_socket(raw, server_hostname="example.test", session=session)
                    started = time.monotonic()
                    client.sendall(request[:20])
                    client.sendall(request[20:-2] + b"Connection: close\\r\\n\\r\\n")
                    answer = b""
                    while chunk := client.recv(65536):
                        answer += chunk
                    slowest = max(slowest, time.monotonic() - started)
                    times.append((version.name, attempt, round((time.monotonic() - started) * 1000, 1)))
                    assert answer.startswith(b"HTTP/1.1 200"), answer[:40]
                    assert attempt == 0 or client.session_reused, (version, attempt)
                    session = client.session
                    client.close()
            # A stall held against Nagle delays every answer; a busy machine delays one or two.
            slow = sum(1 for _, _, ms in times if ms > 30)
            print("slow" if slow > len(times) // 2 else "fast", round(slowest * 1000, 1), times)
            """
        let printed = try runClient(script)
        #expect(printed.hasPrefix("fast"), "slowest answer after the handshake: \(printed) ms")
    }

    /// Runs a Python TLS client against the HTTPS port: `script` after a preamble with
    /// `connect(session=None)` and a keep-alive `request`; what it printed.
    private func runClient(_ body: String) throws -> String {
        let script = """
            import socket, ssl, sys, time
            context = ssl.create_default_context(cafile=sys.argv[2])
            def connect(session=None):
                raw = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
                return context.wrap_socket(raw, server_hostname="example.test", session=session)
            request = b"GET /apple-app-site-association HTTP/1.1\\r\\nHost: example.test\\r\\n\\r\\n"

            """ + body
        let output = try folder.write("client.out", "")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, String(securePort), certificates.caFile]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = process.standardOutput
        try process.run()
        process.waitUntilExit()
        let printed = try String(contentsOfFile: output, encoding: .utf8)
        #expect(process.terminationStatus == 0, "\(printed)")
        return printed.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

@Suite("HTTPS start-up")
struct TLSStartupTests {
    static func start(_ folder: TemporaryFolder) throws -> BinaryRunner.Output {
        try folder.write(
            "sites/example.test/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        return try BinaryRunner.run(
            ["serve", "--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off"], in: folder.url
        )
    }

    /// A pair `issued` (certbot's names) moved into a timestamped folder of the Secret `secret`
    /// as the kubelet writes one (`tls.crt`, `tls.key`); the timestamped folder.
    static func stamp(_ issued: URL, into secret: URL, as name: String) throws -> URL {
        let stamped = secret.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: stamped, withIntermediateDirectories: true)
        for (from, to) in [("fullchain.pem", "tls.crt"), ("privkey.pem", "tls.key")] {
            try FileManager.default.moveItem(
                at: issued.appendingPathComponent(from), to: stamped.appendingPathComponent(to))
        }
        try FileManager.default.removeItem(at: issued)
        return stamped
    }

    @Test("a Kubernetes TLS Secret mounted as a folder loads once, by its tls.crt and tls.key names")
    func kubernetesSecret() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("example.test", names: ["example.test"])
        // What the kubelet writes: the files in a hidden timestamped folder, `..data` linking
        // to it, and the visible names linking through `..data`.
        try certificates.issue("staging", names: ["secret.test"])
        let secret = certificates.directory.appendingPathComponent("secret")
        let stamped = try Self.stamp(
            certificates.directory.appendingPathComponent("staging"), into: secret,
            as: "..2026_11_23_08_00_00.000000001")
        try FileManager.default.createSymbolicLink(
            atPath: secret.appendingPathComponent("..data").path, withDestinationPath: stamped.lastPathComponent)
        for name in ["tls.crt", "tls.key"] {
            try FileManager.default.createSymbolicLink(
                atPath: secret.appendingPathComponent(name).path, withDestinationPath: "..data/\(name)")
        }
        try folder.write("sites/secret.test/apple-app-site-association", TLSTests.wild)
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off"])
        defer { _ = server.stop() }
        let range = try #require(server.errors.range(of: "info listening on https://127.0.0.1:"))
        let port = try #require(Int(server.errors[range.upperBound...].prefix { $0.isNumber }))
        let response = try Curl.request(
            "https://secret.test:\(port)/.well-known/apple-app-site-association",
            ["--cacert", certificates.caFile, "--resolve", "secret.test:\(port):127.0.0.1"])
        #expect(response.status == 200)
        let metrics = try Curl.request("http://127.0.0.1:\(try #require(server.adminPort))/metrics").body
        let expiry = String(decoding: metrics, as: UTF8.self).split(separator: "\n").filter {
            $0.hasPrefix("aasa_certificate_expiry_timestamp_seconds{")
        }
        #expect(expiry.count == 2, "\(expiry)")
        #expect(expiry.contains { $0.contains("certificate=\"secret\"") })
        _ = try PythonPrometheus.parse(String(decoding: metrics, as: UTF8.self))
        // The kubelet's update: a new timestamped folder, and a new `..data` renamed over the old
        // one. The first load watched the Secret's folder as it listed it: the new name is served.
        // Issued outside the certificates folder, so only the swap can make the new name served.
        try certificates.issue("../renewed", names: ["secret.test", "new.secret.test"])
        let next = try Self.stamp(
            folder.url.appendingPathComponent("renewed"), into: secret, as: "..2026_11_23_09_00_00.000000002")
        try FileManager.default.createSymbolicLink(
            atPath: secret.appendingPathComponent("..data_tmp").path, withDestinationPath: next.lastPathComponent)
        #expect(
            rename(
                secret.appendingPathComponent("..data_tmp").path, secret.appendingPathComponent("..data").path) == 0)
        // Verified for the new name (no site serves it: any answer will do).
        let served = eventually(10) {
            (try? Curl.request(
                "https://new.secret.test:\(port)/.well-known/apple-app-site-association",
                ["--cacert", certificates.caFile, "--resolve", "new.secret.test:\(port):127.0.0.1"])) != nil
        }
        #expect(served, "the renewed Secret's new name is not served: \(server.errors)")
    }

    @Test("150 reloads with three certificates leave resident memory within 4 MiB: old stores are freed")
    func reloadsFreeCertificates() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        for name in ["a.test", "b.test", "c.test"] { try certificates.issue(name, names: [name]) }
        try folder.write("sites/a.test/apple-app-site-association", TLSTests.wild)
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off"])
        defer { _ = server.stop() }
        func reload(_ times: Int) {
            let before = server.errors.components(separatedBy: "info reloaded").count
            for index in 0..<times {
                server.signal(SIGHUP)
                // One at a time: signals sent while a reload runs would merge.
                _ = eventually(10) { server.errors.components(separatedBy: "info reloaded").count > before + index }
            }
        }
        func residentKiB() -> Int {
            let status =
                (try? String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        reload(20)
        let start = residentKiB()
        reload(150)
        let grown = residentKiB() - start
        #expect(start > 0)
        #expect(server.errors.components(separatedBy: "info reloaded").count - 1 >= 170)
        // ASan's quarantine keeps freed memory resident by design: the bound means nothing there.
        #expect(BinaryRunner.underAddressSanitizer || grown < 4 * 1024, "resident memory grew by \(grown) KiB")
        print("reloadsFreeCertificates: resident \(start) KiB, grew by \(grown) KiB over 150 reloads")
    }

    /// Waits up to `seconds` for `condition`.
    @Test("a key that does not match its certificate is found at its name's first handshake: CERT004, refused")
    func mismatchedKey() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("a.test", names: ["a.test"])
        try certificates.issue("b.test", names: ["b.test"])
        let otherKey = try String(
            contentsOf: certificates.directory.appendingPathComponent("b.test/privkey.pem"), encoding: .utf8)
        try otherKey.write(
            to: certificates.directory.appendingPathComponent("a.test/privkey.pem"), atomically: true, encoding: .utf8)
        try folder.write("sites/a.test/apple-app-site-association", TLSTests.wild)
        try folder.write("sites/b.test/apple-app-site-association", TLSTests.wild)
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off"])
        defer { _ = server.stop() }
        let range = try #require(server.errors.range(of: "info listening on https://127.0.0.1:"))
        let port = try #require(Int(server.errors[range.upperBound...].prefix { $0.isNumber }))
        func handshake(_ name: String) throws -> (status: Int32, output: String) {
            try TestCertificates.openssl(
                ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", name, "-CAfile", certificates.caFile],
                input: "")
        }
        let refused = try handshake("a.test")
        #expect(refused.status != 0)
        #expect(refused.output.contains("unrecognized name"), "\(refused.output)")
        let folderPath = certificates.directory.appendingPathComponent("a.test").standardizedFileURL.path
        let message =
            "the private key \(folderPath)/privkey.pem does not match the certificate \(folderPath)/fullchain.pem"
        #expect(eventually(10) { server.errors.contains(message) }, "\(server.errors)")
        #expect(server.errors.contains("CERT004"))
        // The other certificate serves; the failure is shown and counted, once.
        #expect(try handshake("b.test").output.contains("Verify return code: 0 (ok)"))
        _ = try handshake("a.test")
        #expect(server.errors.components(separatedBy: message).count == 2, "\(server.errors)")
        let admin = try #require(server.adminPort)
        let metrics = String(decoding: try Curl.request("http://127.0.0.1:\(admin)/metrics").body, as: UTF8.self)
        #expect(metrics.contains("aasa_certificate_load_failures 1"), "\(metrics)")
        let page = String(decoding: try Curl.request("http://127.0.0.1:\(admin)/").body, as: UTF8.self)
        #expect(page.contains("does not match the certificate"))
    }

    @Test("an expired certificate stops start-up; one expiring soon warns")
    func expiry() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        try certificates.issueBackdated("old.test", names: ["old.test"], daysAgo: 30, daysLeft: -1)
        let expired = try Self.start(folder)
        #expect(expired.status == 1)
        #expect(expired.stderr.contains("expired"))
        let soon = try TemporaryFolder()
        let soonCertificates = try TestCertificates(in: soon)
        // A sixth of a 65-day lifetime is 10.8 days: 5 days left warns. A 5-day certificate
        // with 5 days left does not (docs/acme.md, "Certificate lifetimes").
        try soonCertificates.issueBackdated("soon.test", names: ["soon.test"], daysAgo: 60, daysLeft: 5)
        try soonCertificates.issue("fresh.test", names: ["fresh.test"], days: 5)
        try soon.write(
            "sites/example.test/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        let server = try RunningServer(
            in: soon.url, ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off"])
        #expect(server.errors.contains("warning: the certificate expires"))
        let warnings = server.errors.components(separatedBy: "warning: the certificate expires").count - 1
        #expect(warnings == 1, "\(server.errors)")
        // The log and the status page count the days alike.
        let days = try #require(server.errors.firstMatch(of: #/, in (\d+) days/#)?.1)
        let page = String(
            decoding: try Curl.request("http://127.0.0.1:\(try #require(server.adminPort))/").body, as: UTF8.self)
        #expect(page.contains("(\(days) days)"), "\(days)")
        #expect(server.stop() == 0)
    }

    @Test("an RSA certificate serves, with a note on what it costs per connection (CERT007); P-256 has none")
    func rsaNote() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("rsa.test", names: ["rsa.test"], rsa: true)
        try certificates.issue("ec.test", names: ["ec.test"])
        try folder.write(
            "sites/rsa.test/apple-app-site-association",
            SiteFixtures.webCredentialsAASA())
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off"])
        defer { _ = server.stop() }
        let notes = server.errors.split(separator: "\n").filter { $0.contains("CERT007") }
        #expect(notes.count == 1, "\(server.errors)")
        #expect(notes.first?.contains("rsa.test") == true && notes.first?.contains("3.3 times") == true)
    }

    @Test("an unreadable or missing certificates folder stops start-up")
    func missing() throws {
        let folder = try TemporaryFolder()
        let output = try Self.start(folder)
        #expect(output.status == 1)
        #expect(output.stderr.contains("no certificate pairs"))
    }
}
