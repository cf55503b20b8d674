import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// Renewal information (RFC 9773), profiles, several issuers and external account binding,
/// against Pebble (docs/acme.md, "Issuers in order", "Renewal information"). Debian's Pebble has
/// neither renewalInfo nor profiles: `Tests/Peers/ari-directory-proxy.py` adds them in front.
@Suite("ACME issuers, renewal information and profiles", .serialized)
struct ACMEIssuerTests {
    let base: ACMETests

    init() throws {
        base = try ACMETests()
    }

    /// The CertID (RFC 9773 §4.1) of a stored certificate, computed by openssl(1) rather than
    /// by the server's code: base64url(AKI keyIdentifier) "." base64url(serial DER content).
    func certID(_ chain: String) throws -> String {
        let (_, text) = try TestCertificates.openssl([
            "x509", "-in", chain, "-noout", "-serial", "-ext", "authorityKeyIdentifier",
        ])
        let serialLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("serial=") })
        var serial = Self.hexBytes(String(serialLine.dropFirst("serial=".count)))
        if serial.first.map({ $0 >= 0x80 }) ?? true { serial.insert(0, at: 0) }
        let akiLine = try #require(
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first {
                $0.contains(":") && !$0.hasPrefix("serial") && !$0.hasPrefix("X509v3")
            })
        let aki = Self.hexBytes(akiLine.replacingOccurrences(of: "keyid:", with: ""))
        return Self.base64url(aki) + "." + Self.base64url(serial)
    }

    static func hexBytes(_ text: String) -> [UInt8] {
        // openssl prints a serial without leading zeros, so its digits may be odd in number.
        var digits = Array(text.filter(\.isHexDigit))
        if digits.count % 2 == 1 { digits.insert("0", at: 0) }
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The renewal-information stand-in in front of `pebble`'s directory, answering as
    /// `modeFile` says; its directory URL.
    func ariProxy(_ pebble: Pebble, modeFile: String) throws -> (PeerProcess, String) {
        let proxy = try PeerProcess(
            script: "ari-directory-proxy.py",
            arguments: [pebble.listenerCA, pebble.listenerKey, "\(pebble.directoryPort)", modeFile])
        let port = proxy.port(within: 10)
        #expect(port != nil, "the peer did not start: \(proxy.output)")
        return (proxy, "https://127.0.0.1:\(try #require(port))/dir")
    }

    func metrics(_ server: RunningServer) -> String {
        (try? base.admin(server, "/metrics")) ?? ""
    }

    @Test("ARI: a window 30 days ahead renews nothing, a begun one renews at once with replaces; profiles")
    func renewalInformation() throws {
        // Every newOrder is counted below: Pebble's default rejection of 5 % of nonces would
        // make the client send one twice (RFC 8555 §6.5, badNonce), which is not a second order.
        let pebble = try Pebble(
            httpPort: base.httpPort, tlsPort: base.httpsPort, environment: ["PEBBLE_WFE_NONCEREJECT": "0"])
        let modeFile = try base.folder.write("ari-mode", "ahead")
        let (proxy, directory) = try ariProxy(pebble, modeFile: modeFile)
        let label = directory.dropFirst("https://".count).prefix { $0 != "/" }
        let flags =
            [
                "--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:\(base.httpsPort)", "--access-log", "off",
                "--http", "127.0.0.1:\(base.httpPort)", "--acme", "on", "--acme-directory", directory,
                "--acme-directory-ca", pebble.listenerCA, "--acme-challenges", "http-01", "--acme-on-demand", "off",
            ] + pebble.preflightFlags(port: base.httpPort)
        let unknown = try BinaryRunner.run(["serve"] + flags + ["--acme-profile", "ninety-days"], in: base.folder.url)
        #expect(unknown.status == 2, "\(unknown.stderr)")
        #expect(
            unknown.stderr.contains("the profile ninety-days is not offered (offered: classic, shortlived, tlsserver)"),
            "\(unknown.stderr)")

        var server = try RunningServer(in: base.folder.url, flags + ["--acme-profile", "tlsserver"])
        #expect(eventually(60) { base.fetch("shop.example.com", pebble)?.status == 200 }, "\(server.errors)")
        let chain = base.folder.url.appendingPathComponent("certs/acme/shop.example.com/fullchain.pem").path
        let first = try certID(chain)
        // Asked about on issuance; the window is 30 days ahead: nothing is renewed.
        #expect(eventually(30) { server.errors.contains("acme: renewal window") }, "\(server.errors)")
        #expect(proxy.output.contains("ARI \(first)"), "\(proxy.output)")
        let page = try base.admin(server, "/")
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.timeZone = TimeZone(identifier: "GMT")
        day.dateFormat = "dd MMM yyyy"
        // The day of a moment `offset` after now, or after five minutes ago (the window was
        // set a moment before this check, which may have crossed midnight since).
        func showsDay(_ offset: TimeInterval) -> Bool {
            [Date(), Date().addingTimeInterval(-300)].contains { page.contains(day.string(from: $0 + offset)) }
        }
        #expect(showsDay(30 * 86_400), "\(page)")
        #expect(showsDay(6 * 3600), "next check in 6 h: \(page)")
        #expect(page.contains("via \(label)"))
        #expect(metrics(server).contains("aasa_acme_orders_total{issuer=\"\(label)\",result=\"valid\"} 1"))
        #expect(metrics(server).contains("aasa_acme_renewals_total{issuer=\"\(label)\",result=\"valid\"} 0"))
        let orders = proxy.output.split(separator: "\n").filter { $0.hasPrefix("ORDER ") }
        #expect(orders.count == 1 && orders[0].contains("\"profile\":\"tlsserver\""), "\(orders)\n\(server.errors)")
        #expect(!orders[0].contains("replaces"))
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")

        // The CA moves the window into the past (as after a mis-issuance): a restart asks
        // again and renews at once, naming the certificate it replaces. The certificate must be
        // older than the renewal floor (a day), so one planted two days ago stands in for it.
        let certificates = try TestCertificates(in: base.folder)
        try certificates.issueBackdated(
            "acme/shop.example.com", names: ["shop.example.com", "www.shop.example.com"], daysAgo: 2, daysLeft: 88)
        let planted = try certID(chain)
        try "begun".write(toFile: modeFile, atomically: true, encoding: .utf8)
        server = try RunningServer(in: base.folder.url, flags + ["--acme-profile", "tlsserver"])
        #expect(
            eventually(60) {
                metrics(server).contains("aasa_acme_renewals_total{issuer=\"\(label)\",result=\"valid\"} 1")
            }, "\(server.errors)")
        #expect(eventually(30) { (try? certID(chain)).map { $0 != planted } ?? false })
        // The new certificate is asked about at once and the window has begun for it too: put
        // off by the renewal floor, so exactly one renewal names the planted certificate.
        #expect(eventually(30) { metrics(server).contains("aasa_acme_renewals_deferred_total 1") }, "\(server.errors)")
        // (Counted where stored: an order the CA fails under load is tried again, a new ORDER.)
        #expect(Self.stored(server) == 1, "\(server.errors)")
        let renewal =
            proxy.output.split(separator: "\n").first { $0.hasPrefix("ORDER ") && $0.contains("replaces") } ?? ""
        #expect(renewal.contains("\"replaces\":\"\(planted)\""), "\(proxy.output)")
        #expect(server.errors.contains("replaces=\(planted)"))
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }

    /// Certificates `server` stored (an order the CA failed and the server tried again is one).
    static func stored(_ server: RunningServer) -> Int {
        server.errors.components(separatedBy: "acme: certificate stored").count - 1
    }

    @Test(
        "a CA calling every certificate due: one order, then deferred at each check and restart; an expired one renews")
    func renewalFloor() throws {
        let pebble = try Pebble(httpPort: base.httpPort, tlsPort: base.httpsPort)
        let modeFile = try base.folder.write("ari-mode", "begun")
        let (proxy, directory) = try ariProxy(pebble, modeFile: modeFile)
        let flags =
            [
                "--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:\(base.httpsPort)", "--access-log", "off",
                "--http", "127.0.0.1:\(base.httpPort)", "--acme", "on", "--acme-directory",
                directory, "--acme-directory-ca", pebble.listenerCA,
                "--acme-challenges", "http-01", "--acme-on-demand", "off",
            ] + pebble.preflightFlags(port: base.httpPort)
        // Three runs, each asking about the certificate at once (start-up or issuance): the
        // window has begun every time, and the certificate is younger than a day.
        let chain = base.folder.url.appendingPathComponent("certs/acme/shop.example.com/fullchain.pem").path
        var first: String?
        for run in 1...3 {
            let server = try RunningServer(in: base.folder.url, flags)
            let deferred = "aasa_acme_renewals_deferred_total 1"
            #expect(eventually(60) { metrics(server).contains(deferred) }, "run \(run): \(server.errors)")
            #expect(base.fetch("shop.example.com", pebble)?.status == 200)
            #expect(server.errors.contains("acme: renewal deferred"), "\(server.errors)")
            #expect(server.errors.contains("reason=\"one certificate per name in 24 h (renewal floor)\""))
            #expect(try base.admin(server, "/").contains("(renewal floor)"))
            #expect(Self.stored(server) == (run == 1 ? 1 : 0), "run \(run): \(server.errors)")
            first = try first ?? certID(chain)
            #expect(try certID(chain) == first)
            #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
        }
        #expect(proxy.output.split(separator: "\n").count { $0.hasPrefix("ARI ") } >= 3, "\(proxy.output)")

        // An expired certificate is no certificate: ordered at once, floor or not; the new one
        // is deferred in its turn.
        let certificates = try TestCertificates(in: base.folder)
        try certificates.issueBackdated(
            "acme/shop.example.com", names: ["shop.example.com", "www.shop.example.com"], daysAgo: 30, daysLeft: -1)
        let server = try RunningServer(in: base.folder.url, flags)
        #expect(eventually(60) { base.fetch("shop.example.com", pebble)?.status == 200 }, "\(server.errors)")
        #expect(eventually(30) { metrics(server).contains("aasa_acme_renewals_deferred_total 1") }, "\(server.errors)")
        #expect(Self.stored(server) == 1, "\(server.errors)")
        #expect(try certID(chain) != first)
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }

    @Test("two issuers: the first unreachable, the second a Pebble requiring EAB; from a config file")
    func fallbackAndEAB() throws {
        let hmac = "zWNDZM6eQGHWpSRTPal5eIUYFTu7EajVIoguysqZ9wG44nMEtx3MUAsUDkMTQ12W"
        let pebble = try Pebble(httpPort: base.httpPort, tlsPort: base.httpsPort, eab: ["kid-1": hmac])
        let unreachable = "127.0.0.1:\(try ProbeTests.freePort())"
        let keyFile = try base.folder.write("config/eab.key", hmac + "\n")
        #expect(chmod(keyFile, 0o600) == 0)
        try FileManager.default.copyItem(
            atPath: pebble.listenerCA, toPath: base.folder.url.appendingPathComponent("config/pebble.pem").path)
        let config = try base.folder.write(
            "config/aasa-server.json",
            """
            {"acmeIssuers": [
              {"directory": "https://\(unreachable)/dir"},
              {"directory": "\(pebble.directory)", "ca": "pebble.pem", "eabKid": "kid-1",
               "eabHmacKeyFile": "eab.key"}]}
            """)
        let flags =
            [
                "--config", config, "--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:\(base.httpsPort)",
                "--access-log", "off", "--http", "127.0.0.1:\(base.httpPort)", "--acme", "on", "--acme-challenges",
                "http-01", "--acme-on-demand", "off",
            ] + pebble.preflightFlags(port: base.httpPort)
        #expect(chmod(keyFile, 0o644) == 0)
        let loose = try BinaryRunner.run(["serve"] + flags, in: base.folder.url)
        #expect(loose.status == 2 && loose.stderr.contains("chmod 600"), "\(loose.stderr)")
        #expect(chmod(keyFile, 0o600) == 0)

        let server = try RunningServer(in: base.folder.url, flags)
        #expect(eventually(60) { base.fetch("shop.example.com", pebble)?.status == 200 }, "\(server.errors)")
        let text = metrics(server)
        #expect(text.contains("aasa_acme_orders_total{issuer=\"\(unreachable)\",result=\"failed\"} 1"), "\(text)")
        #expect(text.contains("aasa_acme_orders_total{issuer=\"\(pebble.label)\",result=\"valid\"} 1"), "\(text)")
        #expect(server.errors.contains("next_issuer=\(pebble.label)"), "\(server.errors)")
        #expect(try base.admin(server, "/").contains("via \(pebble.label)"))
        #expect(try base.mode(try base.accountKey(pebble.directory)) == 0o600)
        #expect(try base.accountKey("https://\(unreachable)/dir").hasSuffix(".key"))
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }
}
