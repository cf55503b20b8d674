import AASASignedData
import Foundation
import TestSupport
import Testing

/// What is read from CMS without trusting it (the CDN's copies, provisioning profiles) and
/// certificate fingerprints as Digital Asset Links writes them, checked against openssl(1).
@Suite("signed content and fingerprints")
final class SignedContentTests {
    let folder: TemporaryFolder
    let files: SignedFiles

    init() throws {
        folder = try TemporaryFolder("aasa-signed-content")
        files = try SignedFiles(in: folder)
    }

    @Test("a signed file's content is read, tampered or not; JSON passes through as it is")
    func content() throws {
        let json = Array(SignedFiles.json.utf8)
        #expect(SignedContent.cmsContent(Array(try files.sign())) == json)
        #expect(SignedContent.cmsContent(Array(try files.sign(pem: true))) == json)
        #expect(SignedContent.json(Array(try files.sign())) == json)
        let tampered = try #require(SignedContent.cmsContent(Array(try files.tampered())))
        #expect(String(decoding: tampered, as: UTF8.self).contains("/bux/"))
        #expect(SignedContent.cmsContent(json) == nil)
        #expect(SignedContent.json(json) == json)
        #expect(SignedContent.json([]) == [])
    }

    @Test("a certificate's SHA-256 fingerprint, PEM or DER, is openssl's, upper-case with colons")
    func fingerprint() throws {
        let pem = files.certificates.directory.appendingPathComponent("signer/cert.pem").path
        let der = folder.path("signer.der")
        try TestCertificates.openssl(["x509", "-in", pem, "-outform", "DER", "-out", der])
        let printed = try TestCertificates.openssl(["x509", "-in", pem, "-noout", "-fingerprint", "-sha256"]).output
        let expected = try #require(printed.split(separator: "=").last).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(expected.count == 32 * 3 - 1)
        for path in [pem, der] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(SignedContent.sha256Fingerprint(ofCertificate: bytes) == expected, "\(path)")
        }
        #expect(SignedContent.sha256Fingerprint(ofCertificate: Array("not a certificate".utf8)) == nil)
    }
}
