import AssociationKit
import Foundation
import TestSupport
import Testing

@testable import AASAServer
@testable import AASATransport

/// CMS-signed association files (iOS 8's format) through the real binary: validated with the
/// note and each signature problem's code, matched and diffed as their content, unsigned,
/// and served byte for byte as application/pkcs7-mime.
@Suite("signed association files", .serialized)
struct SignedFileCommandTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var file: @Sendable (SignedFiles) throws -> Data
        var cacert = true
        var codes: [String]
        var status: Int32
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "DER, valid", file: { try $0.sign() }, codes: ["SIG001"], status: 0),
        Case(name: "PEM, valid", file: { try $0.sign(pem: true) }, codes: ["SIG001"], status: 0),
        Case(
            name: "not trusted without --cacert", file: { try $0.sign() }, cacert: false, codes: ["SIG003"], status: 1),
        Case(name: "tampered", file: { try $0.tampered() }, codes: ["SIG002"], status: 1),
        Case(name: "expired signer", file: { try $0.sign(by: "expired") }, codes: ["SIG004"], status: 1),
        Case(name: "signer for another name", file: { try $0.sign(by: "other") }, codes: ["SIG005"], status: 1),
        Case(
            name: "content not JSON", file: { try $0.sign("{\"applinks\":\n  {\"details\": [,]}}") },
            codes: ["SIG006", "2:16: error: expected a value"], status: 1),
    ]

    @Test("validate: the note always, and each signature problem as an error with its code")
    func validate() throws {
        let folder = try TemporaryFolder()
        let files = try SignedFiles(in: folder)
        for example in Self.cases {
            let path = try folder.write("sites/example.com/apple-app-site-association", try example.file(files))
            let output = try BinaryRunner.run(
                ["validate"] + (example.cacert ? ["--cacert", files.caFile] : []) + [
                    (path as NSString).deletingLastPathComponent
                ])
            #expect(output.status == example.status, "\(example.name): \(output.stdout)")
            #expect(output.stdout.contains("info: a CMS-signed file"), "\(example.name): \(output.stdout)")
            for code in example.codes {
                #expect(output.stdout.contains(code), "\(example.name) lacks \(code): \(output.stdout)")
            }
        }
    }

    @Test("unsign writes the content byte for byte; a plain file is refused")
    func unsign() throws {
        let folder = try TemporaryFolder()
        let files = try SignedFiles(in: folder)
        for pem in [false, true] {
            let path = try folder.write("signed.p7", try files.sign(pem: pem))
            let output = try BinaryRunner.run(["unsign", path])
            #expect(output.status == 0)
            #expect(output.stdout == SignedFiles.json)
        }
        let plain = try BinaryRunner.run(["unsign", try folder.write("plain.json", SignedFiles.json)])
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("not CMS-signed"))
        #expect(try BinaryRunner.run(["unsign", folder.url.appendingPathComponent("missing").path]).status == 2)
    }

    @Test("match reads a signed file as its content; diff compares it with the plain file by meaning")
    func matchAndDiff() throws {
        let folder = try TemporaryFolder()
        let files = try SignedFiles(in: folder)
        let signed = try folder.write("apple-app-site-association", try files.sign())
        let matched = try BinaryRunner.run(["match", "--file", signed, "https://example.com/buy/1"])
        #expect(matched.status == 0, "\(matched.stdout)\(matched.stderr)")
        #expect(matched.stdout.contains("match     ABCDE12345.com.example.app"))
        let plain = try folder.write("plain.json", SignedFiles.json.replacingOccurrences(of: "\n", with: " "))
        let same = try BinaryRunner.run(["diff", signed, plain])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        let changed = try folder.write("changed.json", SignedFiles.json.replacingOccurrences(of: "/buy/", with: "/b/"))
        #expect(try BinaryRunner.run(["diff", signed, changed]).status == 1)
    }

    @Test("serve: the exact bytes as application/pkcs7-mime, with gzip, ETag and 304 as for JSON")
    func serve() throws {
        let folder = try TemporaryFolder()
        let files = try SignedFiles(in: folder)
        let bytes = try files.sign()
        _ = try folder.write("sites/example.com/apple-app-site-association", bytes)
        // The system's roots are the test CA's here (X509_STORE_set_default_paths(3)).
        let server = try RunningServer(
            in: folder.url, ["--sites", "sites", "--https", "off"], environment: ["SSL_CERT_FILE": files.caFile])
        defer { _ = server.stop() }
        let url = "http://127.0.0.1:\(server.port)/.well-known/apple-app-site-association"
        let plain = try Curl.request(url, ["-H", "Host: example.com"])
        #expect(plain.status == 200)
        #expect(plain.headers["content-type"] == "application/pkcs7-mime")
        #expect(plain.body == bytes)
        #expect(plain.headers["content-length"] == String(bytes.count))
        let etag = try #require(plain.headers["etag"])
        let again = try Curl.request(url, ["-H", "Host: example.com", "-H", "If-None-Match: \(etag)"])
        #expect(again.status == 304)
        let gzip = try Curl.request(url, ["-H", "Host: example.com", "--compressed"])
        #expect(gzip.headers["content-encoding"] == "gzip")
        #expect(gzip.headers["content-type"] == "application/pkcs7-mime")
        #expect(gzip.body == bytes)
    }

    @Test("probe: a signed file over HTTPS is application/pkcs7-mime and valid, with the note")
    func probe() throws {
        let folder = try TemporaryFolder()
        let files = try SignedFiles(in: folder)
        _ = try folder.write("sites/example.com/apple-app-site-association", try files.sign())
        let server = try RunningServer(
            in: folder.url,
            [
                "--sites", "sites", "--certs", files.certificates.directory.appendingPathComponent("signer").path,
                "--https", "127.0.0.1:0", "--http", "off", "--default-certificate", "example.com",
            ], environment: ["SSL_CERT_FILE": files.caFile])
        defer { _ = server.stop() }
        let output = try BinaryRunner.run([
            "probe", "--cacert", files.caFile, "--connect-to", "127.0.0.1:\(server.port)", "--timeout", "3",
            "example.com",
        ])
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.stdout.contains("pass  apple-app-site-association content type: application/pkcs7-mime"))
        #expect(output.stdout.contains("[SIG001]"), "\(output.stdout)")
        #expect(!output.stdout.contains("SIG002") && !output.stdout.contains("SIG003"), "\(output.stdout)")
    }

    @Test("the CDN watch compares a signed copy by its content's meaning")
    func cdnCopy() throws {
        let folder = try TemporaryFolder()
        let signed = [UInt8](try SignedFiles(in: folder).sign())
        let response = HTTPClientResponse(status: 200, headers: [], body: signed, wireBytes: signed.count)
        let meaning = try #require(MeaningFingerprint(json: Array(SignedFiles.json.utf8)))
        #expect(CacheAnswer(appleCDN: .success(response)) == .copy(meaning))
    }

    @Test("serve refuses a signed file whose signature does not verify, as it refuses bad JSON")
    func serveRefusesTampered() throws {
        let folder = try TemporaryFolder()
        let files = try SignedFiles(in: folder)
        _ = try folder.write("sites/example.com/apple-app-site-association", try files.tampered())
        let output = try BinaryRunner.run(
            ["serve", "--sites", "sites", "--http", "127.0.0.1:0", "--https", "off", "--admin", "off"],
            in: folder.url, environment: ["SSL_CERT_FILE": files.caFile])
        #expect(output.status != 0)
        #expect(output.stderr.contains("SIG002"), "\(output.stderr)")
    }
}
