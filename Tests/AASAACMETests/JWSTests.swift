import AssociationKit
import Foundation
import TestSupport
import Testing

@testable import AASAACME
@testable import AASATransport

/// A whole JWS as the CA checks it (RFC 7515 §5.2): the signature over `protected.payload`
/// verifies with the account key's public half (openssl dgst), the payload and the header's
/// strings read back exactly, whatever characters they hold.
@Suite("JWS sign and verify")
struct JWSTests {
    static func decode(_ text: String) throws -> Data {
        try #require(Base64URL.decode(text).map { Data($0) })
    }

    @Test(
        "signed, verified by openssl, read back",
        arguments: [
            nil, .object([]),
            .object([
                ("identifiers", .array([.object([("type", .string("dns")), ("value", .string("shop.example.com"))])]))
            ]),
            .object([
                ("contact", .array([.string("mailto:ops+\"acme\"@example.com")])), ("note", .string("é \\ \u{1}")),
            ]),
        ] as [JSONNode?], [JWS.Signer.jwk, .kid("https://ca.test/acct/1"), .kid(#"https://ca.test/a"c\d"#)])
    func signAndVerify(_ payload: JSONNode?, _ signer: JWS.Signer) throws {
        let key = try ECKey.generate()
        let url = "https://ca.test/new-order?x=\"1\""
        let body = try JWS.sign(payload: payload, url: url, nonce: "n-_0", key: key, signer: signer)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: String])
        let protected = try #require(json["protected"])
        let encodedPayload = try #require(json["payload"])
        #expect(try Self.decode(encodedPayload) == Data((payload.map { JSONWriter().text($0) } ?? "").utf8))
        let header = try #require(
            try JSONSerialization.jsonObject(with: try Self.decode(protected)) as? [String: Any])
        #expect(header["url"] as? String == url && header["nonce"] as? String == "n-_0")
        switch signer {
        case .jwk:
            let object = try #require(header["jwk"])
            let jwk = try JSONSerialization.data(withJSONObject: object, options: .sortedKeys)
            #expect(jwk == Data(key.jwk.utf8))
        case .kid(let kid):
            #expect(header["kid"] as? String == kid)
        }
        let encodedSignature = try #require(json["signature"])
        let signature = try #require(Base64URL.decode(encodedSignature))
        #expect(signature.count == 64)
        let folder = try TemporaryFolder("acme-jws")
        let keyFile = try folder.write("key.pem", Data(key.pem()))
        let publicFile = try folder.write("pub.pem", "")
        _ = try OpenSSLCommand.run(["pkey", "-in", keyFile, "-pubout", "-out", publicFile])
        let signed = try folder.write("signed", "\(protected).\(encodedPayload)")
        let signatureFile = try folder.write("signature.der", Data(ACMECryptoTests.der(signature)))
        let verified = try OpenSSLCommand.run([
            "dgst", "-sha256", "-verify", publicFile, "-signature", signatureFile, signed,
        ])
        #expect(verified.status == 0 && verified.output.contains("Verified OK"), "\(verified.output)")
    }
}
