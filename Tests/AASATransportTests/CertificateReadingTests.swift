import AASATransport
import COpenSSL
import Foundation
import Synchronization
import TestSupport
import Testing

/// What the certificate loader reads without OpenSSL's generic decoders: PEM blocks
/// (`PEMBlock`) and EC private keys (`ECPrivateKeyReader`), checked against OpenSSL's own reading.
@Suite("PEM blocks and EC keys read as OpenSSL reads them")
struct CertificateReadingTests {
    @Test(
        "base64 with line breaks and padding",
        arguments: [
            ("TWFu", [UInt8]("Man".utf8)),
            ("TWE=", [UInt8]("Ma".utf8)),
            ("TQ==", [UInt8]("M".utf8)),
            ("TW\r\nFu\n TWE=\n", [UInt8]("ManMa".utf8)),
            ("", []),
            ("TWE", [UInt8]("Ma".utf8)),  // without its padding, as OpenSSL's PEM reader takes it
        ])
    func decodes(text: String, expected: [UInt8]) {
        let decoded = Array(text.utf8).withUnsafeBytes { PEMBlock.decode($0) }
        #expect(decoded == expected)
    }

    @Test("not base64: nil", arguments: ["TW!u", "TQ==TWFu", "T", "TQ===", "TWFuT"])
    func refuses(text: String) {
        #expect(Array(text.utf8).withUnsafeBytes { PEMBlock.decode($0) } == nil)
    }

    @Test("the first block of the label asked for, after blocks of others")
    func findsTheBlock() {
        let pem = Array(
            "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n"
                .appending("-----BEGIN CERTIFICATE-----\nTWFu\n-----END CERTIFICATE-----\n")
                .appending("-----BEGIN CERTIFICATE-----\nTWE=\n-----END CERTIFICATE-----\n").utf8)
        #expect(PEMBlock.first("CERTIFICATE", in: pem) == Array("Man".utf8))
        let prime256v1: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        #expect(PEMBlock.first("EC PARAMETERS", in: pem) == prime256v1)
        #expect(PEMBlock.first("PRIVATE KEY", in: pem) == nil)
        #expect(PEMBlock.first("CERTIFICATE", in: Array("-----BEGIN CERTIFICATE-----\nTWFu\n".utf8)) == nil)
    }

    /// openssl(1) arguments that write a key to the file named last, and whether the reader
    /// takes it (else OpenSSL's decoder does).
    static let keys: [(String, [String], Bool)] = [
        ("P-256 PKCS #8", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out"], true),
        ("P-384 PKCS #8", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out"], true),
        ("P-256 SEC 1", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out"], true),
        ("P-256 SEC 1 after its parameters", ["ecparam", "-name", "prime256v1", "-genkey", "-out"], true),
        ("P-521", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-521", "-out"], false),
        (
            "explicit curve parameters",
            ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-param_enc", "explicit", "-out"], false
        ),
        ("Ed25519", ["genpkey", "-algorithm", "ed25519", "-out"], false),
        ("RSA", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out"], false),
    ]

    @Test("EC keys: the same private and public key as OpenSSL's decoder reads; other keys left to it")
    func ecKeys() throws {
        let folder = try TemporaryFolder()
        for (label, arguments, fast) in Self.keys {
            let path = folder.url.appendingPathComponent("key.pem").path
            let made = try OpenSSLCommand.run(arguments + [path])
            try #require(made.status == 0, "\(label): \(made.output)")
            let pem = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let decoded = try #require(Self.decoded(path), "\(label)")
            defer { EVP_PKEY_free(decoded) }
            guard let key = ECPrivateKeyReader.key(pem: pem) else {
                #expect(!fast, "\(label): not read")
                continue
            }
            defer { EVP_PKEY_free(key) }
            #expect(fast, "\(label): read")
            #expect(EVP_PKEY_eq(key, decoded) == 1, "\(label): public keys differ")
            #expect(Self.secret(key) == Self.secret(decoded), "\(label): private numbers differ")
        }
    }

    @Test("a chain loads with its issuers shared, and a key that is not its certificate's is refused")
    func loadsChains() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("one.test", names: ["one.test"])
        try certificates.issue("two.test", names: ["two.test"])
        let one = certificates.directory.appendingPathComponent("one.test").path
        let two = certificates.directory.appendingPathComponent("two.test").path
        _ = try LoadedCertificate(chainFile: one + "/fullchain.pem", keyFile: one + "/privkey.pem", fileBytes: 0)
        _ = try LoadedCertificate(chainFile: two + "/fullchain.pem", keyFile: two + "/privkey.pem", fileBytes: 0)
        #expect(throws: OpenSSLError.self) {
            try LoadedCertificate(chainFile: one + "/fullchain.pem", keyFile: two + "/privkey.pem", fileBytes: 0)
        }
    }

    @Test("a FIFO in place of a chain or a key is refused at once, at the index and at the load, never waited on")
    func fifos() throws {
        let folder = try TemporaryFolder()
        let certificates = try TestCertificates(in: folder)
        try certificates.issue("pipe.test", names: ["pipe.test"])
        try certificates.issue("keypipe.test", names: ["keypipe.test"])
        let pipe = certificates.directory.appendingPathComponent("pipe.test").path
        let keyPipe = certificates.directory.appendingPathComponent("keypipe.test").path
        try FileManager.default.removeItem(atPath: pipe + "/fullchain.pem")
        try FileManager.default.removeItem(atPath: keyPipe + "/privkey.pem")
        #expect(mkfifo(pipe + "/fullchain.pem", 0o600) == 0)
        #expect(mkfifo(keyPipe + "/privkey.pem", 0o600) == 0)
        // On a thread of its own, so a regression fails the test at its deadline instead of hanging it.
        let done = DispatchSemaphore(value: 0)
        let results = Mutex<(chain: Bool, key: Bool, indexed: [[String]])?>(nil)
        let directory = certificates.directory.path
        Thread {
            let chain =
                (try? LoadedCertificate(
                    chainFile: pipe + "/fullchain.pem", keyFile: pipe + "/privkey.pem", fileBytes: 0)) == nil
            let key =
                (try? LoadedCertificate(
                    chainFile: keyPipe + "/fullchain.pem", keyFile: keyPipe + "/privkey.pem", fileBytes: 0)) == nil
            let indexed = CertificateStore.load(directory: directory).store?.certificates.map(\.names) ?? []
            results.withLock { $0 = (chain, key, indexed) }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 20) == .success)
        let seen = try #require(results.withLock { $0 })
        #expect(seen.chain && seen.key)
        #expect(!seen.indexed.contains(["pipe.test"]))
    }

    private static func decoded(_ path: String) -> OpaquePointer? {
        guard let bio = BIO_new_file(path, "r") else { return nil }
        defer { BIO_free(bio) }
        return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
    }

    private static func secret(_ key: OpaquePointer) -> String? {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, "priv", &number) == 1, let number, let hex = BN_bn2hex(number) else {
            return nil
        }
        defer {
            CRYPTO_free(hex, #fileID, #line)
            BN_clear_free(number)
        }
        return String(cString: hex)
    }
}
