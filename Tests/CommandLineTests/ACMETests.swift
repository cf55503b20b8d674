import Foundation
@preconcurrency import Glibc
import TestSupport
import Testing

/// `serve --acme on` against Pebble (Let's Encrypt's test CA), the real binary on loopback
/// ports, checked with curl as a user would (docs/acme.md, "Automatic certificates").
@Suite("ACME with Pebble", .serialized)
struct ACMETests {
    let folder: TemporaryFolder
    let httpPort: Int
    let httpsPort: Int

    init() throws {
        folder = try TemporaryFolder()
        httpPort = try ProbeTests.freePort()
        httpsPort = try ProbeTests.freePort()
        try folder.write("sites/shop.example.com/apple-app-site-association", ProbeTests.apple)
        try folder.write("sites/*.staging.example.com/apple-app-site-association", ProbeTests.apple)
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("sites/www.shop.example.com").path,
            withDestinationPath: "shop.example.com")
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("certs"), withIntermediateDirectories: true)
    }

    func serve(
        _ pebble: Pebble, _ extra: [String], http: Bool = true, environment: [String: String] = [:]
    ) throws -> RunningServer {
        try RunningServer(
            in: folder.url,
            [
                "--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:\(httpsPort)", "--access-log", "off",
                "--acme", "on", "--acme-directory", pebble.directory, "--acme-directory-ca", pebble.listenerCA,
                "--acme-email", "ops@example.com", "--http", http ? "127.0.0.1:\(httpPort)" : "off",
            ] + pebble.preflightFlags(port: httpPort) + extra, environment: environment)
    }

    /// curl over HTTPS to `host` on the server's port, trusting Pebble's root only.
    func fetch(_ host: String, _ pebble: Pebble) -> Curl.Response? {
        try? Curl.request(
            "https://\(host):\(httpsPort)/.well-known/apple-app-site-association",
            ["--cacert", pebble.issuingRoot, "--resolve", "\(host):\(httpsPort):127.0.0.1"])
    }

    func admin(_ server: RunningServer, _ path: String) throws -> String {
        let port = try #require(server.adminPort)
        return String(decoding: try Curl.request("http://127.0.0.1:\(port)\(path)").body, as: UTF8.self)
    }

    /// The account key the server keeps for `directory` under certs/acme/accounts/, named by
    /// the directory's host and port.
    func accountKey(_ directory: String) throws -> String {
        let url = try #require(URLComponents(string: directory))
        let prefix = "\(url.host ?? "")_\(url.port ?? 443)-"
        let folder = "certs/acme/accounts"
        let names = try FileManager.default.contentsOfDirectory(
            atPath: self.folder.url.appendingPathComponent(folder).path)
        return folder + "/" + (try #require(names.first { $0.hasPrefix(prefix) && $0.hasSuffix(".key") }))
    }

    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent(path).path)
        return (attributes[.posixPermissions] as? Int ?? 0) & 0o777
    }

    @Test(
        "HTTP-01: a site and its alias get one certificate, a wildcard's name one on demand, a restart orders nothing")
    func http01() throws {
        let pebble = try Pebble(httpPort: httpPort, tlsPort: httpsPort)
        let started = Date()
        var server = try serve(pebble, ["--acme-challenges", "http-01"])
        #expect(eventually(60) { fetch("shop.example.com", pebble)?.status == 200 }, "\(server.errors)")
        print("acme: start to a verified handshake for shop.example.com: \(Date().timeIntervalSince(started)) s")
        #expect(fetch("www.shop.example.com", pebble)?.status == 200)
        #expect(try mode("certs/acme/shop.example.com/privkey.pem") == 0o600)
        #expect(try mode(accountKey(pebble.directory)) == 0o600)
        #expect(server.errors.contains("acme: answering http-01"))
        #expect(!server.errors.contains("acme: answering tls-alpn-01"))

        // The first handshake for a wildcard site's name waits for its certificate.
        let onDemand = Date()
        #expect(fetch("pr-7.staging.example.com", pebble)?.status == 200, "\(server.errors)")
        print("acme: first request to an on-demand name: \(Date().timeIntervalSince(onDemand)) s")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.url.appendingPathComponent("certs/acme/pr-7.staging.example.com/fullchain.pem").path))

        // A name no site serves is never ordered.
        #expect(fetch("nobody.example.org", pebble) == nil)
        #expect(!server.errors.contains("nobody.example.org"))
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.url.appendingPathComponent("certs/acme/nobody.example.org").path))

        let metrics = try admin(server, "/metrics")
        #expect(metrics.contains("aasa_acme_orders_total{issuer=\"\(pebble.label)\",result=\"valid\"} 2"), "\(metrics)")
        #expect(metrics.contains("aasa_acme_orders_total{issuer=\"\(pebble.label)\",result=\"failed\"} 0"))
        let page = try admin(server, "/")
        #expect(page.contains("Automatic certificates") && page.contains("shop.example.com, www.shop.example.com"))
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")

        // A restart reads what is stored: both certificates are kept as issued, nothing is ordered.
        server = try serve(pebble, ["--acme-challenges", "http-01"])
        #expect(fetch("shop.example.com", pebble)?.status == 200)
        #expect(fetch("pr-7.staging.example.com", pebble)?.status == 200)
        #expect(
            try eventually(10) {
                let page = try admin(server, "/")
                return page.components(separatedBy: "<td class=\"ok\">issued</td>").count == 3
            })
        #expect(!server.errors.contains("acme: order created"), "\(server.errors)")
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }

    @Test("TLS-ALPN-01 alone with --http off: a site and an on-demand name")
    func tlsALPN01() throws {
        let pebble = try Pebble(httpPort: try ProbeTests.freePort(), tlsPort: httpsPort)
        let server = try serve(pebble, ["--acme-on-demand-rate", "1"], http: false)
        #expect(eventually(60) { fetch("shop.example.com", pebble)?.status == 200 }, "\(server.errors)")
        #expect(fetch("pr-9.staging.example.com", pebble)?.status == 200, "\(server.errors)")
        // One new on-demand name per hour: the second is refused at once, not ordered.
        #expect(fetch("pr-10.staging.example.com", pebble) == nil)
        #expect(!server.errors.contains("names=pr-10.staging.example.com"))
        #expect(try admin(server, "/metrics").contains("aasa_acme_on_demand_refused_total{reason=\"rate\"} 1"))
        #expect(server.errors.contains("acme: answering tls-alpn-01"))
        #expect(!server.errors.contains("acme: answering http-01"))
        // The validation certificate is only for a pending name and `acme-tls/1`: now none is pending.
        let (_, output) = try TestCertificates.openssl([
            "s_client", "-connect", "127.0.0.1:\(httpsPort)", "-servername", "shop.example.com", "-alpn", "acme-tls/1",
        ])
        #expect(!output.contains("ALPN protocol: acme-tls/1"))
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }

    @Test("the weekly budget: a third new name of a registered domain is not ordered, another's is; kept on restart")
    func weeklyBudget() throws {
        try folder.write("sites/*.staging.example.org/apple-app-site-association", ProbeTests.apple)
        let pebble = try Pebble(httpPort: httpPort, tlsPort: httpsPort)
        let flags = ["--acme-challenges", "http-01", "--acme-on-demand-weekly", "2"]
        var server = try serve(pebble, flags)
        // The exact site's certificate is out of the budget: two on-demand names still fit.
        #expect(eventually(60) { fetch("shop.example.com", pebble)?.status == 200 }, "\(server.errors)")
        #expect(fetch("pr-1.staging.example.com", pebble)?.status == 200, "\(server.errors)")
        #expect(fetch("pr-2.staging.example.com", pebble)?.status == 200, "\(server.errors)")
        #expect(fetch("pr-3.staging.example.com", pebble) == nil)
        #expect(fetch("pr-1.staging.example.org", pebble)?.status == 200, "\(server.errors)")
        #expect(!server.errors.contains("names=pr-3.staging.example.com"))
        let metrics = try admin(server, "/metrics")
        #expect(metrics.contains("aasa_acme_on_demand_refused_total{reason=\"budget\"} 1"), "\(metrics)")
        #expect(metrics.contains("aasa_acme_orders_total{issuer=\"\(pebble.label)\",result=\"valid\"} 4"), "\(metrics)")
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")

        // A restart reads the budget back: example.com's is still spent, and what was issued is served.
        server = try serve(pebble, flags)
        #expect(eventually(30) { fetch("pr-1.staging.example.com", pebble)?.status == 200 }, "\(server.errors)")
        #expect(fetch("pr-4.staging.example.com", pebble) == nil)
        #expect(!server.errors.contains("names=pr-4.staging.example.com"), "\(server.errors)")
        #expect(!server.errors.contains("acme: order created"), "\(server.errors)")
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }

    @Test("a certificate with less than a third of its lifetime left is renewed")
    func renewal() throws {
        let certificates = try TestCertificates(in: folder)
        try certificates.issueBackdated(
            "acme/shop.example.com", names: ["shop.example.com", "www.shop.example.com"], daysAgo: 60, daysLeft: 5)
        let pebble = try Pebble(httpPort: httpPort, tlsPort: httpsPort)
        let server = try serve(pebble, ["--acme-on-demand", "off"])
        #expect(eventually(60) { fetch("shop.example.com", pebble)?.status == 200 }, "\(server.errors)")
        #expect(server.errors.contains("kind=renewal"))
        #expect(
            try admin(server, "/metrics").contains(
                "aasa_acme_renewals_total{issuer=\"\(pebble.label)\",result=\"valid\"} 1"))
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }

    @Test("a CA that rejects every nonce: the order fails with its problem, logged, and waits a backoff")
    func failingCA() throws {
        let pebble = try Pebble(httpPort: httpPort, tlsPort: httpsPort, environment: ["PEBBLE_WFE_NONCEREJECT": "100"])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("sites/www.shop.example.com"))
        // An expired certificate under acme/ is a warning with ACME on: the server starts.
        let certificates = try TestCertificates(in: folder)
        try certificates.issueBackdated("acme/old.example.com", names: ["old.example.com"], daysAgo: 100, daysLeft: -1)
        let server = try serve(pebble, ["--acme-on-demand", "off"])
        #expect(server.errors.contains("CERT001"), "\(server.errors)")
        #expect(eventually(30) { server.errors.contains("acme: order failed") }, "\(server.errors)")
        #expect(server.errors.contains("type=urn:ietf:params:acme:error:badNonce"))
        let page = try admin(server, "/")
        #expect(page.contains("badNonce"))
        let metrics = try admin(server, "/metrics")
        #expect(metrics.contains("aasa_acme_orders_total{issuer=\"\(pebble.label)\",result=\"failed\"} 1"))
        // The same state in all three places (docs/customer-domains.md): failing, with the
        // CA's problem and the next try.
        #expect(metrics.contains("aasa_acme_certificates{state=\"failing\"} 1"), "\(metrics)")
        #expect(metrics.contains("aasa_acme_certificate_unissued{site=\"shop.example.com\"} 1.0"))
        let labels = metrics.split(separator: "\n").filter { $0.hasPrefix("aasa_acme_certificates{") }
            .map { $0.split(separator: "\"")[1] }
        #expect(labels == ["issued", "waiting_dns", "ordering", "failing", "expired"])
        let site = try admin(server, "/?q=shop.example.com")
        #expect(site.contains(#"<dd class="certificate"><span class="bad">failing</span>: "#), "\(site)")
        #expect(site.contains("badNonce") && site.contains("; next try "))
        let document = try admin(server, "/sites.json?q=shop.example.com")
        let sites = try #require(
            (try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])?["sites"]
                as? [[String: Any]])
        let certificate = try #require(
            sites.first { $0["name"] as? String == "shop.example.com" }?["certificate"] as? [String: Any])
        #expect(certificate["state"] as? String == "failing")
        #expect((certificate["problem"] as? String)?.contains("badNonce") == true)
        #expect(certificate["nextAttempt"] as? Int != nil)
        // The failure is not retried at once: the next attempt is a backoff (60 s ± 25 %) away.
        let retry = try #require(server.errors.range(of: "retry_in="))
        let seconds = Int(server.errors[retry.upperBound...].prefix { $0.isNumber }) ?? 0
        #expect((45...75).contains(seconds))
        // Each POST was tried with a fresh nonce a bounded number of times, then no more.
        #expect((1...5).contains(pebble.requests("/sign-me-up")), "\(pebble.output)")
        // Without any certificate, a handshake fails with a clear alert and the server goes on.
        let (_, handshake) = try TestCertificates.openssl([
            "s_client", "-connect", "127.0.0.1:\(httpsPort)", "-servername", "shop.example.com",
        ])
        #expect(handshake.contains("unrecognized name"), "\(handshake)")
        #expect(server.process.isRunning)
        #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
    }

    /// The rate-limiting CA of `Tests/Peers`, answering with `retryAfter`, and the server
    /// pointed at it; `body` checks them.
    func withRateLimitingCA(
        retryAfter: String, _ body: (RunningServer, _ requests: () -> String, _ port: Int) throws -> Void
    ) throws {
        try withPeerCA("rate-limiting-acme-ca.py", [retryAfter], body)
    }

    /// A CA of `Tests/Peers` (`script`, given `arguments` after its certificate and key) and the
    /// server pointed at it; `body` checks them.
    func withPeerCA(
        _ script: String, _ arguments: [String],
        _ body: (RunningServer, _ requests: () -> String, _ port: Int) throws -> Void
    ) throws {
        let caFolder = try TemporaryFolder()
        let certificates = try TestCertificates(in: caFolder)
        try certificates.issue("listener", names: ["127.0.0.1"])
        let listener = certificates.directory.appendingPathComponent("listener")
        let ca = Process()
        ca.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ca.arguments =
            [
                "python3", BinaryRunner.packageRoot.appendingPathComponent("Tests/Peers/\(script)").path,
                listener.appendingPathComponent("fullchain.pem").path,
                listener.appendingPathComponent("privkey.pem").path,
            ] + arguments
        // Its output goes to a file (no pipe handler left registered with libdispatch).
        let log = try caFolder.write("requests.log", "")
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        ca.standardOutput = output
        ca.standardInput = FileHandle.nullDevice
        try ca.run()
        try output.close()
        defer {
            kill(ca.processIdentifier, SIGKILL)
            ca.waitUntilExit()
        }
        let requests = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        var port: Int?
        #expect(
            eventually(10) {
                port = Int(requests().split(separator: "\n").first ?? "")
                return port != nil
            })
        let server = try RunningServer(
            in: folder.url,
            [
                "--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:\(httpsPort)", "--access-log", "off",
                "--acme", "on", "--acme-directory", "https://127.0.0.1:\(try #require(port))/dir",
                "--acme-directory-ca", certificates.caFile, "--acme-on-demand", "off",
                // No DNS here for the names: the CA's answer, not the pre-flight's, is under test.
                "--acme-preflight", "off",
            ])
        try body(server, requests, try #require(port))
    }

    @Test("a stop while an order waits between polls (the CA's Retry-After: 60 s) is not held by it")
    func stopDuringOrder() throws {
        try withPeerCA("pending-acme-ca.py", []) { (server: RunningServer, requests: () -> String, _: Int) throws in
            // The challenge is posted, then the authorization polled: the worker rests 60 s.
            #expect(eventually(30) { requests().contains("POST /challenge/1") }, "\(requests())")
            #expect(eventually(10) { requests().components(separatedBy: "POST /authz/1").count >= 3 }, "\(requests())")
            let asked = Date()
            #expect(server.stop(timeout: 30) == 0, "\(server.errors.suffix(4000))")
            #expect(Date().timeIntervalSince(asked) < 15, "the stop took \(Date().timeIntervalSince(asked)) s")
            #expect(server.errors.contains("abandoned at stop"), "\(server.errors.suffix(4000))")
        }
    }

    @Test("a CA that answers rateLimited: logged with its type, asked again no sooner than its Retry-After")
    func rateLimitedCA() throws {
        try withRateLimitingCA(retryAfter: "3600") { (server: RunningServer, requests: () -> String, _: Int) throws in
            #expect(eventually(30) { server.errors.contains("acme: order failed") }, "\(server.errors)")
            #expect(server.errors.contains("type=urn:ietf:params:acme:error:rateLimited"))
            #expect(
                server.errors.contains("detail=\"too many new registrations from this address\""), "\(server.errors)")
            let retry = try #require(server.errors.range(of: "retry_in="))
            #expect((Int(server.errors[retry.upperBound...].prefix { $0.isNumber }) ?? 0) >= 3600)
            let seen = requests()
            #expect(seen.components(separatedBy: "POST /newAccount").count == 2, "\(seen)")
            #expect(try admin(server, "/").contains("rateLimited"))
            #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
        }
    }

    @Test("a CA's Retry-After of Int.max is read as a day: the server lives on and serves; acme/ is made 0700")
    func hugeRetryAfter() throws {
        let acme = folder.url.appendingPathComponent("certs/acme")
        try FileManager.default.createDirectory(at: acme, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: acme.path)
        try withRateLimitingCA(retryAfter: "9223372036854775807") {
            (server: RunningServer, _: () -> String, port: Int) throws in
            #expect(eventually(30) { server.errors.contains("acme: order failed") }, "\(server.errors)")
            #expect(server.errors.contains("retry_after=86400"), "\(server.errors)")
            #expect(server.errors.contains("retry_in=86400"), "\(server.errors)")
            #expect(server.process.isRunning)
            #expect(try admin(server, "/healthz").contains("ok"))
            #expect(try admin(server, "/").contains("retry after 86400 s"))
            #expect(try mode("certs/acme") == 0o700)
            #expect(try mode(accountKey("https://127.0.0.1:\(port)/dir")) == 0o600)
            #expect(server.stop() == 0, "\(server.errors.suffix(4000))")
        }
    }

    @Test("settings: --acme needs --https, a challenge list is checked")
    func settings() throws {
        let noHTTPS = try BinaryRunner.run(["serve", "--sites", "sites", "--acme", "on"], in: folder.url)
        #expect(noHTTPS.status == 2 && noHTTPS.stderr.contains("--acme on needs an HTTPS listener"))
        let badList = try BinaryRunner.run(
            ["serve", "--sites", "sites", "--https", "127.0.0.1:0", "--acme", "on", "--acme-challenges", "dns-01"],
            in: folder.url)
        #expect(badList.status == 2 && badList.stderr.contains("challenges must be a list of http-01 and tls-alpn-01"))
    }
}
