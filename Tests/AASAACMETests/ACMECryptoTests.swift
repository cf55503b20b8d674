import Foundation
import TestSupport
import Testing

@testable import AASAACME
@testable import AASATransport

/// The pieces ACME signs and presents, each checked by OpenSSL's own command line rather
/// than by our code: base64url, the JWK thumbprint, ES256 signatures, the CSR and the
/// TLS-ALPN-01 validation certificate (RFC 8555, RFC 7638, RFC 7518, RFC 8737).
@Suite("ACME crypto and settings")
struct ACMECryptoTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("acme")
    }

    /// `bytes` in a file named `name` for openssl to read; its path.
    func temporary(_ name: String, _ bytes: [UInt8]) throws -> String {
        try folder.write(name, Data(bytes))
    }

    /// DER of `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` from raw r || s, so
    /// openssl can check what we sign (RFC 7518 §3.4 describes the conversion).
    static func der(_ raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty || value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }

    @Test(
        "base64url without padding (RFC 4648 §5, §10)",
        arguments: [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"), ("\u{FB}\u{FF}", "w7vDvw"),
        ])
    func base64url(input: String, expected: String) {
        #expect(Base64URL.encode(input) == expected)
    }

    @Test("base64url uses - and _ where base64 has + and /")
    func base64urlAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
    }

    @Test("the JWK holds the key's public point and its thumbprint is SHA-256 of it (RFC 7638 §3)")
    func thumbprint() throws {
        let key = try ECKey.generate()
        let keyFile = try temporary("key.pem", key.pem())
        let publicDER = try temporary("pub.der", [])
        #expect(
            try OpenSSLCommand.run(["pkey", "-in", keyFile, "-pubout", "-outform", "DER", "-out", publicDER]).status
                == 0)
        let point = Array(try Data(contentsOf: URL(fileURLWithPath: publicDER)).suffix(64))
        let (x, y) = key.publicCoordinates
        #expect(x + y == point)
        #expect(key.jwk == #"{"crv":"P-256","kty":"EC","x":"\#(Base64URL.encode(x))","y":"\#(Base64URL.encode(y))"}"#)
        let jwkFile = try temporary("jwk", Array(key.jwk.utf8))
        let digest = try OpenSSLCommand.run(["dgst", "-sha256", "-hex", jwkFile]).output
        let hex = SHA256.digest(key.jwk).map { String(format: "%02x", $0) }.joined()
        #expect(digest.contains(hex))
        #expect(key.thumbprint == Base64URL.encode(SHA256.digest(key.jwk)))
        // The key read back from its PEM is the same key.
        #expect(try ECKey(pem: key.pem()).jwk == key.jwk)
        #expect(try OpenSSLCommand.run(["pkey", "-in", keyFile, "-noout", "-text"]).output.contains("P-256"))
    }

    @Test("ES256 signatures are raw r || s that openssl verifies against the public key")
    func es256() throws {
        let key = try ECKey.generate()
        let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJoZWxsbyI6IndvcmxkIn0".utf8)
        let signature = try key.signES256(message)
        #expect(signature.count == 64)
        let keyFile = try temporary("key.pem", key.pem())
        let publicFile = try temporary("pub.pem", [])
        _ = try OpenSSLCommand.run(["pkey", "-in", keyFile, "-pubout", "-out", publicFile])
        let messageFile = try temporary("message", message)
        let signatureFile = try temporary("signature.der", Self.der(signature))
        let verified = try OpenSSLCommand.run([
            "dgst", "-sha256", "-verify", publicFile, "-signature", signatureFile, messageFile,
        ])
        #expect(verified.status == 0 && verified.output.contains("Verified OK"), "\(verified.output)")
        let tampered = try temporary("tampered", message + [0x2E])
        #expect(
            try OpenSSLCommand.run(["dgst", "-sha256", "-verify", publicFile, "-signature", signatureFile, tampered])
                .status
                != 0)
    }

    @Test("a JWS has the protected header ACME requires: alg, jwk or kid, nonce, url (RFC 8555 §6.2)")
    func jws() throws {
        let key = try ECKey.generate()
        for (signer, identity) in [(JWS.Signer.jwk, "jwk"), (.kid("https://ca.test/acct/1"), "kid")] {
            let body = try JWS.sign(
                payload: nil, url: "https://ca.test/order/1", nonce: "abc", key: key, signer: signer)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: String])
            #expect(json["payload"] == "")
            let protected = try #require(json["protected"])
            var padded = protected.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            padded += String(repeating: "=", count: (4 - padded.count % 4) % 4)
            let headerData = try #require(Data(base64Encoded: padded))
            let header = try #require(try JSONSerialization.jsonObject(with: headerData) as? [String: Any])
            #expect(header["alg"] as? String == "ES256")
            #expect(header["nonce"] as? String == "abc")
            #expect(header["url"] as? String == "https://ca.test/order/1")
            #expect(header[identity] != nil && header[identity == "jwk" ? "kid" : "jwk"] == nil)
            #expect(try #require(json["signature"]).count == 86)
        }
    }

    @Test("the CSR names every name as a subjectAltName and verifies with its own key")
    func certificateRequest() throws {
        let key = try ECKey.generate()
        let der = try CertificateRequest.der(names: ["shop.example.com", "www.shop.example.com"], key: key)
        let file = try temporary("request.der", der)
        let result = try OpenSSLCommand.run(["req", "-in", file, "-inform", "DER", "-verify", "-noout", "-text"])
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.output.contains("verify OK")
                || result.output.contains("Certificate request self-signature verify OK"))
        #expect(result.output.contains("DNS:shop.example.com, DNS:www.shop.example.com"))
        #expect(result.output.contains("CN = shop.example.com"))
    }

    @Test("the TLS-ALPN-01 certificate carries the critical acmeIdentifier with SHA-256 of the key authorization")
    func validationCertificate() throws {
        let keyAuthorization = "evaGxfADs6pSRb2LAv9IZf17Dt3juxGJ-PCt92wr-oA.9jg46WB3rR_AHD-EBXdN7cBkH1WOu0tA3M9fm21mqTI"
        let context = try TLSContext.acmeValidation(name: "shop.example.com", keyAuthorization: keyAuthorization)
        let file = try temporary("validation.pem", context.certificatePEM)
        let text = try OpenSSLCommand.run(["x509", "-in", file, "-noout", "-text"]).output
        #expect(text.contains("1.3.6.1.5.5.7.1.31: critical"), "\(text)")
        #expect(text.contains("DNS:shop.example.com"))
        let digest = SHA256.digest(keyAuthorization)
        let hexDigest = ([0x04, 0x20] + digest).map { String(format: "%02X", $0) }.joined()
        let parsed = try OpenSSLCommand.run(["x509", "-in", file, "-outform", "DER", "-out", file + ".der"])
        #expect(parsed.status == 0)
        let derHex = try Data(contentsOf: URL(fileURLWithPath: file + ".der")).map { String(format: "%02X", $0) }
            .joined()
        // extnValue is an OCTET STRING holding the DER OCTET STRING of the 32-byte digest.
        #expect(derHex.contains("0422" + hexDigest))
    }

    @Test(
        "challenge lists: known types, no repeats, in order",
        arguments: [
            ("http-01,tls-alpn-01", [ChallengeType.http01, .tlsALPN01]), ("tls-alpn-01", [.tlsALPN01]),
            (" TLS-ALPN-01 , http-01", [.tlsALPN01, .http01]), ("dns-01", nil), ("http-01,http-01", nil), ("", nil),
        ])
    func challengeLists(text: String, expected: [ChallengeType]?) {
        #expect(ChallengeType.parseList(text) == expected)
    }

    @Test(
        "only public DNS names are ever ordered",
        arguments: [
            ("example.com", true), ("pr-7.staging.example.com", true), ("localhost", false), ("*.example.com", false),
            ("printer.local", false), ("app.localhost", false), ("192.168.1.10", false), ("default", false),
        ])
    func orderable(name: String, expected: Bool) {
        #expect(CertificatePlan.isOrderable(name) == expected)
    }

    @Test("backoff doubles from a minute to a day, with jitter, never sooner than the CA's Retry-After")
    func backoff() {
        for failures in 1...30 {
            let base = min(60 << min(failures - 1, 20), 86_400)
            let delay = ACMEManager.backoff(failures: failures, retryAfter: nil)
            #expect(delay >= base * 3 / 4 && delay <= base * 5 / 4)
        }
        #expect(ACMEManager.backoff(failures: 1, retryAfter: 3600) >= 3600)
    }
}
