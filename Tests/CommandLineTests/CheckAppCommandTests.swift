import Foundation
import TestSupport
import Testing

/// `aasa-server check-app`: an app's associated domains against the files the sites serve.
@Suite("aasa-server check-app")
struct CheckAppCommandTests {
    static let sites = BinaryRunner.packageRoot.appendingPathComponent("Config/sites").path
    static let domains = [
        "applinks:example.com", "webcredentials:example.com", "applinks:*.staging.example.com?mode=developer",
        "applinks:shop.example.org",
    ]

    /// An Xcode-style .entitlements property list.
    static func entitlements(
        _ domains: [String], appID: String = "$(AppIdentifierPrefix)com.example.restaurant"
    ) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
          <key>application-identifier</key><string>\(appID)</string>
          <key>com.apple.developer.associated-domains</key>
          <array>\(domains.map { "<string>\($0)</string>" }.joined())</array>
        </dict></plist>
        """
    }

    @Test("every entry is checked: listed, no site, developer mode, wildcard; a wrong team is named with both IDs")
    func entitlementsAgainstSites() throws {
        let folder = try TemporaryFolder()
        try folder.write("app.entitlements", Self.entitlements(Self.domains))
        let placeholder = try BinaryRunner.run(
            ["check-app", "--entitlements", "app.entitlements", "--sites", Self.sites], in: folder.url)
        #expect(placeholder.status == 2)
        #expect(placeholder.stderr.contains("give --app-id TEAMID.BUNDLE"))
        let output = try BinaryRunner.run(
            [
                "check-app", "--entitlements", "app.entitlements", "--app-id", "ABCDE12345.com.example.restaurant",
                "--sites", Self.sites,
            ], in: folder.url)
        #expect(output.status == 1)
        #expect(
            output.stdout.contains(
                "pass  applinks:example.com: ABCDE12345.com.example.restaurant is listed under applinks"))
        #expect(output.stdout.contains("pass  webcredentials:example.com: "))
        #expect(
            output.stdout.contains(
                "warn  applinks:*.staging.example.com?mode=developer: mode=developer is for development builds only"))
        #expect(
            output.stdout.contains(
                "note  applinks:*.staging.example.com?mode=developer: *.staging.example.com covers subdomains only; "
                    + "staging.example.com itself"
            ))
        #expect(output.stdout.contains("fail  applinks:shop.example.org: no site folder in"))
        let team = try BinaryRunner.run(
            [
                "check-app", "--entitlements", "app.entitlements", "--app-id", "ZZZZZ12345.com.example.restaurant",
                "--sites", Self.sites, "--json",
            ],
            in: folder.url)
        #expect(team.status == 1)
        #expect(team.stdout.contains("the team ID differs (ABCDE12345 in the file, ZZZZZ12345 in the app)"))
        #expect(
            (try JSONSerialization.jsonObject(with: Data(team.stdout.utf8)) as? [String: Any])?["passed"] as? Bool
                == false)
    }

    @Test("a provisioning profile signed with openssl cms, and a binary property list, are read")
    func profileAndBinaryPlist() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("signer", names: ["signer.test"])
        let profile = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
              <key>TeamIdentifier</key><array><string>ABCDE12345</string></array>
              <key>Entitlements</key><dict>
                <key>application-identifier</key><string>ABCDE12345.com.example.restaurant</string>
                <key>com.apple.developer.associated-domains</key><array><string>applinks:example.com</string><string>appclips:example.com</string></array>
              </dict>
            </dict></plist>
            """
        let plist = try folder.write("profile.plist", profile)
        let signer = certificates.directory.appendingPathComponent("signer")
        try TestCertificates.openssl([
            "cms", "-sign", "-in", plist, "-signer", signer.appendingPathComponent("cert.pem").path, "-inkey",
            signer.appendingPathComponent("privkey.pem").path, "-outform", "DER", "-nodetach", "-binary", "-out",
            folder.url.appendingPathComponent("app.mobileprovision").path,
        ])
        let output = try BinaryRunner.run(
            ["check-app", "--entitlements", "app.mobileprovision", "--sites", Self.sites], in: folder.url)
        #expect(output.stdout.hasPrefix("ABCDE12345.com.example.restaurant\n"), "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("pass  applinks:example.com"))
        // The example lists the App Clip's own ID under appclips, not the app's.
        #expect(
            output.stdout.contains(
                "fail  appclips:example.com: ABCDE12345.com.example.restaurant is not listed under appclips"))
        #expect(output.status == 1)
        let binary = Process()
        binary.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        binary.arguments = [
            "python3", "-c",
            "import plistlib,sys; plistlib.dump({'application-identifier': 'ABCDE12345.com.example.restaurant', "
                + "'com.apple.developer.associated-domains': ['applinks:example.com']}, open(sys.argv[1], 'wb'), "
                + "fmt=plistlib.FMT_BINARY)",
            folder.url.appendingPathComponent("binary.entitlements").path,
        ]
        try binary.run()
        binary.waitUntilExit()
        let fromBinary = try BinaryRunner.run(
            ["check-app", "--entitlements", "binary.entitlements", "--sites", Self.sites], in: folder.url)
        #expect(fromBinary.status == 0, "\(fromBinary.stdout)\(fromBinary.stderr)")
    }

    @Test("more domains than Apple recommends is a warning")
    func manyDomains() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "app.entitlements",
            Self.entitlements((0..<31).map { _ in "applinks:example.com" }, appID: "ABCDE12345.com.example.restaurant"))
        let output = try BinaryRunner.run(
            ["check-app", "--entitlements", "app.entitlements", "--sites", Self.sites], in: folder.url)
        #expect(output.status == 0)
        #expect(
            output.stdout.contains(
                "warn  entitlements: 31 applinks domains; Apple recommends no more than about 20–30 per app"))
    }

    @Test("Android: the package and the certificate's SHA-256 fingerprint against each domain's assetlinks.json")
    func android() throws {
        let folder = try TemporaryFolder()
        let listed = "14:6d:e9:83:c5:73:06:50:d8:ee:b9:95:2f:34:fc:64:16:a0:83:42:e6:1d:be:a8:8a:04:96:b2:3f:cf:44:e5"
        let good = try BinaryRunner.run(
            [
                "check-app", "--package", "com.example.restaurant", "--fingerprint", listed, "--domain", "example.com",
                "--sites", Self.sites,
            ], in: folder.url)
        #expect(good.status == 0, "\(good.stdout)")
        #expect(good.stdout.contains("pass  android:example.com: "))
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("app", names: ["app.test"])
        let certificate = certificates.directory.appendingPathComponent("app/cert.pem").path
        let computed = try TestCertificates.openssl(["x509", "-in", certificate, "-noout", "-fingerprint", "-sha256"])
            .output
        let fingerprint = try #require(computed.split(separator: "=").last).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let other = try BinaryRunner.run(
            [
                "check-app", "--package", "com.example.restaurant", "--certificate", certificate, "--domain",
                "example.com", "--domain", "nowhere.test",
                "--sites", Self.sites,
            ], in: folder.url)
        #expect(other.status == 1)
        #expect(other.stdout.contains("with other fingerprints (14:6D:E9"))
        #expect(other.stdout.contains("not \(fingerprint)"), "\(other.stdout) vs \(fingerprint)")
        #expect(other.stdout.contains("fail  android:nowhere.test: no site folder"))
        let unknown = try BinaryRunner.run(
            [
                "check-app", "--package", "com.example.unknown", "--fingerprint", listed, "--domain", "example.com",
                "--sites", Self.sites,
            ], in: folder.url)
        #expect(
            unknown.stdout.contains("does not grant delegate_permission/common.handle_all_urls to com.example.unknown"))
    }

    @Test("--live checks over HTTPS as probe does (our server here); usage errors exit 2")
    func live() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("example.test", names: ["example.test"])
        try folder.write(
            "sites/example.test/apple-app-site-association",
            SiteFixtures.oneAppAASA())
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--certs", "certs", "--https", "127.0.0.1:0", "--http", "off"])
        defer { _ = server.stop() }
        let range = try #require(server.errors.range(of: "info listening on https://127.0.0.1:"))
        let port = try #require(Int(server.errors[range.upperBound...].prefix { $0.isNumber }))
        try folder.write(
            "app.entitlements", Self.entitlements(["applinks:example.test"], appID: "ABCDE12345.com.example.app"))
        let output = try BinaryRunner.run(
            [
                "check-app", "--entitlements", "app.entitlements", "--live", "--cacert", certificates.caFile,
                "--connect-to", "127.0.0.1:\(port)",
            ],
            in: folder.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(
            output.stdout.contains(
                "pass  applinks:example.test: ABCDE12345.com.example.app is listed under applinks in "
                    + "https://example.test/.well-known/apple-app-site-association"
            ))
        #expect(try BinaryRunner.run(["check-app", "--entitlements", "app.entitlements"], in: folder.url).status == 2)
        #expect(
            try BinaryRunner.run(["check-app", "--entitlements", "missing", "--sites", "sites"], in: folder.url).status
                == 2)
        #expect(
            try BinaryRunner.run(
                ["check-app", "--package", "a.b", "--domain", "x", "--sites", "sites"], in: folder.url
            ).status == 2)
    }
}
