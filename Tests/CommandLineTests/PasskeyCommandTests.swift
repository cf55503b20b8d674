import Foundation
import TestSupport
import Testing

/// `validate`, `check-app`, `diff` and `probe` on passkey files: the notes on what one
/// platform lacks, and what an app needs on each domain.
@Suite("passkey files checked")
struct PasskeyCommandTests {
    static let sites = BinaryRunner.packageRoot.appendingPathComponent("Config/sites").path

    @Test("validate --verbose notes, on the file that has it, what the other platform lacks")
    func agreement() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "sites/apple-only.test/apple-app-site-association", #"{"webcredentials": {"apps": ["ABCDE12345.com.a"]}}"#)
        try folder.write(
            "sites/android-only.test/assetlinks.json",
            #"[{"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "android_app", "#
                + #""package_name": "com.example.a", "sha256_cert_fingerprints": ["\#(Self.fingerprint)"]}}]"#)
        try folder.write("sites/endpoints-only.test/passkey-endpoints", #"{"manage": "https://x.test/passkeys"}"#)
        let quiet = try BinaryRunner.run(["validate", "sites"], in: folder.url)
        #expect(!quiet.stdout.contains("WAN02"), "notes only with --verbose: \(quiet.stdout)")
        let output = try BinaryRunner.run(["validate", "--verbose", "sites"], in: folder.url)
        #expect(
            output.stdout.contains("sites/apple-only.test/apple-app-site-association:1:")
                && output.stdout.contains(": info: webcredentials lets ABCDE12345.com.a use")
                && output.stdout.contains("[WAN020]"), "\(output.stdout)")
        #expect(output.stdout.contains("sites/android-only.test/assetlinks.json:1:2: info: "), "\(output.stdout)")
        #expect(output.stdout.contains("[WAN021]") && output.stdout.contains("[WAN022]"), "\(output.stdout)")
        let sarif = try BinaryRunner.run(["validate", "--verbose", "--format", "sarif", "sites"], in: folder.url)
        #expect(sarif.stdout.contains("\"WAN020\""), "\(sarif.stdout)")
    }

    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    @Test("validate: a broken webauthn prints file:line:column, the code, and in GitHub's format too")
    func broken() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("webauthn", "{\n  \"origins\": [\"http://example.com\"]\n}\n")
        let output = try BinaryRunner.run(["validate", path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("\(path):2:15: error: "), "\(output.stdout)")
        #expect(output.stdout.contains("[WAN005]"), "\(output.stdout)")
        let github = try BinaryRunner.run(["validate", "--format", "github", path])
        #expect(github.stdout.contains("::error file=\(path),line=2,col=15") && github.stdout.contains("WAN005"))
    }

    @Test("check-app: what an app's webcredentials domain and an Android package need for passkeys")
    func checkApp() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "app.entitlements", CheckAppCommandTests.entitlements(["webcredentials:example.com"]))
        let apple = try BinaryRunner.run(
            [
                "check-app", "--entitlements", "app.entitlements", "--app-id", "ABCDE12345.com.example.restaurant",
                "--sites", Self.sites,
            ], in: folder.url)
        #expect(apple.status == 0, "\(apple.stdout)")
        #expect(
            apple.stdout.contains("pass  passkeys:example.com: ")
                && apple.stdout.contains("example.com/webauthn is valid"))
        #expect(apple.stdout.contains("example.com/passkey-endpoints is valid"), "\(apple.stdout)")
        let android = try BinaryRunner.run(
            [
                "check-app", "--package", "com.example.restaurant", "--fingerprint", Self.fingerprint, "--domain",
                "example.com", "--sites", Self.sites,
            ], in: folder.url)
        #expect(android.stdout.contains("pass  passkeys:example.com: assetlinks.json lets com.example.restaurant use"))
        #expect(android.status == 0, "\(android.stdout)")
        // Signed with another key: the grant is not this app's, for links or for passkeys.
        let other = "B4:31:1F:FD:8A:3C:09:72:1E:6F:C5:2A:4B:77:D0:93:6E:15:02:C8:9A:41:7B:E3:5D:88:06:F1:2C:9E:4A:70"
        let wrong = try BinaryRunner.run(
            [
                "check-app", "--package", "com.example.restaurant", "--fingerprint", other, "--domain",
                "example.com", "--sites", Self.sites,
            ], in: folder.url)
        #expect(wrong.stdout.contains("fail  android:example.com: "), "\(wrong.stdout)")
        #expect(!wrong.stdout.contains("pass  passkeys:example.com: assetlinks.json"), "\(wrong.stdout)")
        #expect(wrong.stdout.contains("fail  passkeys:example.com: assetlinks.json lets com.example.restaurant use"))
        #expect(wrong.status != 0)
    }

    @Test("diff: origins added, removed and reordered; endpoints changed; formatting is no change")
    func diff() throws {
        let folder = try TemporaryFolder()
        try folder.write("old/webauthn", #"{"origins": ["https://a.com", "https://b.com"]}"#)
        try folder.write("new/webauthn", #"{"origins": ["https://b.com", "https://c.com"]}"#)
        try folder.write("same/webauthn", "{\n  \"origins\": [\"https://A.com\", \"https://b.com\"]\n}\n")
        try folder.write("moved/webauthn", #"{"origins": ["https://b.com", "https://a.com"]}"#)
        let changed = try BinaryRunner.run(["diff", "old/webauthn", "new/webauthn", "--json"], in: folder.url)
        #expect(changed.status == 1)
        #expect(
            changed.stdout.contains("https://a.com") && changed.stdout.contains("https://c.com"), "\(changed.stdout)")
        #expect(changed.stdout.contains("\"removed\"") && changed.stdout.contains("\"added\""), "\(changed.stdout)")
        #expect(try BinaryRunner.run(["diff", "old/webauthn", "same/webauthn"], in: folder.url).status == 0)
        let moved = try BinaryRunner.run(["diff", "old/webauthn", "moved/webauthn", "--json"], in: folder.url)
        #expect(moved.status == 1 && moved.stdout.contains("\"moved\""), "\(moved.stdout)")
        try folder.write("old/passkey-endpoints", #"{"enroll": "https://a.com/new"}"#)
        try folder.write("new/passkey-endpoints", #"{"enroll": "https://a.com/passkeys/new"}"#)
        let endpoints = try BinaryRunner.run(
            ["diff", "old/passkey-endpoints", "new/passkey-endpoints", "--json"], in: folder.url)
        #expect(endpoints.status == 1 && endpoints.stdout.contains("\"changed\""), "\(endpoints.stdout)")
    }

    @Test("probe checks the passkey files when the site serves them, and says nothing of absent ones")
    func probe() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("example.test", names: ["example.test"])
        try folder.write(
            "sites/example.test/webauthn", #"{"origins": ["https://example.test", "https://shop.example.co.uk"]}"#)
        try folder.write(
            "sites/example.test/apple-app-site-association", #"{"webcredentials": {"apps": ["ABCDE12345.com.a"]}}"#)
        let server = try RunningServer(
            in: folder.url,
            [
                "--sites", "sites", "--certs", certificates.directory.appendingPathComponent("example.test").path,
                "--https", "127.0.0.1:0", "--http", "off", "--default-certificate", "example.test",
            ])
        defer { _ = server.stop() }
        let output = try BinaryRunner.run([
            "probe", "--cacert", certificates.caFile, "--connect-to", "127.0.0.1:\(server.port)", "--timeout", "3",
            "example.test",
        ])
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.stdout.contains("pass  webauthn status: 200, no redirect"), "\(output.stdout)")
        #expect(output.stdout.contains("pass  webauthn content type: application/json"), "\(output.stdout)")
        #expect(output.stdout.contains("pass  webauthn content: valid"), "\(output.stdout)")
        #expect(!output.stdout.contains("passkey-endpoints"), "\(output.stdout)")
    }
}
