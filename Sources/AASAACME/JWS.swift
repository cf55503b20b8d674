import AASATransport
import AssociationKit

/// A JSON Web Signature in the flattened JSON serialization (RFC 7515 §7.2.2) as ACME
/// requires it (RFC 8555 §6.2): ES256, the nonce and URL in the protected header, the
/// account's `kid` once registered and its `jwk` before.
enum JWS {
    enum Signer {
        case jwk
        case kid(String)
    }

    /// The request body; `payload` nil is a POST-as-GET (an empty payload, RFC 8555 §6.3).
    static func sign(
        payload: JSONNode?, url: String, nonce: String, key: ECKey, signer: Signer
    ) throws(ACMEProblem) -> [UInt8] {
        let identity: (key: String, value: JSONNode) =
            switch signer {
            case .jwk: ("jwk", key.jwkNode)
            case .kid(let kid): ("kid", .string(kid))
            }
        let header = JSONNode.object([
            ("alg", .string("ES256")), identity, ("nonce", .string(nonce)), ("url", .string(url)),
        ])
        let protected = Base64URL.encode(JSONWriter().text(header))
        let encodedPayload = payload.map { Base64URL.encode(JSONWriter().text($0)) } ?? ""
        let signature: [UInt8]
        do {
            signature = try key.signES256(Array("\(protected).\(encodedPayload)".utf8))
        } catch {
            throw ACMEProblem.transport("cannot sign the request: \(error)")
        }
        var body: [UInt8] = []
        JSONWriter().append(
            .object([
                ("protected", .string(protected)), ("payload", .string(encodedPayload)),
                ("signature", .string(Base64URL.encode(signature))),
            ]), to: &body)
        return body
    }
}
