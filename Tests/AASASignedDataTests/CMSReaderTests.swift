import AASASignedData
import AssociationKit
import Foundation
import TestSupport
import Testing

/// CMS-signed association files read and verified in process (RFC 5652 §5), made at test time
/// with `openssl cms -sign` by signers of a test CA: the content, the signature and the chain
/// each judged on its own, the dates left to the validator.
@Suite("CMS reader")
final class CMSReaderTests {
    let folder: TemporaryFolder
    let files: SignedFiles
    var trust: TrustAnchors { .file(files.caFile) }

    init() throws {
        folder = try TemporaryFolder("aasa-cms")
        files = try SignedFiles(in: folder)
    }

    /// `openssl cms -sign` by `signer` with `options` in place of `-nodetach`, DER.
    func sign(by signer: String = "signer", _ options: [String]) throws -> [UInt8] {
        let name = UUID().uuidString
        let input = try folder.write("signing/\(name).json", SignedFiles.json)
        let output = folder.path("signing/\(name).p7")
        let certificate = files.certificates.directory.appendingPathComponent(signer)
        try TestCertificates.openssl(
            ["cms", "-sign", "-binary", "-in", input, "-signer", certificate.appendingPathComponent("cert.pem").path]
                + ["-inkey", certificate.appendingPathComponent("privkey.pem").path, "-outform", "DER", "-out", output]
                + options)
        return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    @Test("DER and PEM: the content as signed, the signature verified, the chain trusted, the signer's names")
    func verified() throws {
        for pem in [false, true] {
            let envelope = try #require(CMSReader.open(Array(try files.sign(pem: pem)), trusting: trust))
            #expect(envelope.encoding == (pem ? .pem : .der))
            #expect(envelope.content == Array(SignedFiles.json.utf8))
            #expect(envelope.signature == .verified)
            #expect(envelope.trust == .trusted)
            let signer = try #require(envelope.signer)
            #expect(signer.names == ["example.com"])
            #expect(signer.subject.contains("example.com"), "\(signer.subject)")
            #expect(signer.notBefore <= Int(Date().timeIntervalSince1970))
            #expect(signer.notAfter > Int(Date().timeIntervalSince1970) + 300 * 86_400)
        }
    }

    @Test("content changed after signing: the signature fails in OpenSSL's words, the content is still read")
    func tampered() throws {
        let envelope = try #require(CMSReader.open(Array(try files.tampered()), trusting: trust))
        guard case .failed(let reason) = envelope.signature else {
            Issue.record("a tampered file verified: \(envelope.signature)")
            return
        }
        #expect(!reason.isEmpty)
        #expect(envelope.content.map { String(decoding: $0, as: UTF8.self).contains("/bux/") } == true)
        #expect(envelope.trust == .trusted)
    }

    @Test("a signer of another CA is untrusted; the signature over the content still holds")
    func otherRoots() throws {
        let elsewhere = try TemporaryFolder("aasa-cms-other")
        let otherCA = try TestCertificates(in: elsewhere)
        for roots in [TrustAnchors.file(otherCA.caFile), .system] {
            let envelope = try #require(CMSReader.open(Array(try files.sign()), trusting: roots))
            #expect(envelope.signature == .verified)
            guard case .untrusted(let reason) = envelope.trust else {
                Issue.record("a chain to the test CA was trusted by \(roots)")
                continue
            }
            #expect(!reason.isEmpty)
        }
    }

    @Test("roots that cannot be read: untrusted, saying so")
    func unreadableRoots() throws {
        let envelope = try #require(
            CMSReader.open(Array(try files.sign()), trusting: .file(folder.path("nowhere.pem"))))
        #expect(envelope.trust == .untrusted("the trusted certificates cannot be read"))
    }

    @Test("an expired signer is still trusted and verified: its dates are the validator's to judge")
    func expiredSigner() throws {
        let envelope = try #require(CMSReader.open(Array(try files.sign(by: "expired")), trusting: trust))
        #expect(envelope.signature == .verified)
        #expect(envelope.trust == .trusted)
        #expect(try #require(envelope.signer).notAfter < Int(Date().timeIntervalSince1970))
    }

    @Test("a detached signature carries no content and says so")
    func detached() throws {
        let envelope = try #require(CMSReader.open(try sign([]), trusting: trust))
        #expect(envelope.content == nil)
        #expect(envelope.signature == .failed("the signature is detached"))
    }

    @Test("a file without certificates names no signer and is untrusted")
    func noCertificates() throws {
        let envelope = try #require(CMSReader.open(try sign(["-nodetach", "-nocerts"]), trusting: trust))
        #expect(envelope.content == Array(SignedFiles.json.utf8))
        #expect(envelope.signer == nil)
        #expect(envelope.trust == .untrusted("the file carries no signer certificate"))
    }

    @Test(
        "bytes that are not CMS SignedData open as nothing",
        arguments: [
            Array(SignedFiles.json.utf8), [], [0x30], [0x30, 0x03, 0x02, 0x01, 0x00],
            Array("-----BEGIN PKCS7-----\nnot base64\n-----END PKCS7-----\n".utf8),
        ])
    func notCMS(_ bytes: [UInt8]) {
        #expect(CMSReader.open(bytes, trusting: .system) == nil)
    }

    @Test("the reader handed to the pure layers opens what open opens")
    func reader() throws {
        let bytes = Array(try files.sign())
        #expect(CMSReader.reader(trusting: trust).open(bytes) == CMSReader.open(bytes, trusting: trust))
    }
}
