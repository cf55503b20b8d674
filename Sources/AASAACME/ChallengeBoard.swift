import AASATransport
import Synchronization

/// The challenges being validated now, read by the listeners: HTTP-01 key authorizations
/// by token (RFC 8555 §8.3) and TLS-ALPN-01 validation certificates by name (RFC 8737 §3).
/// An entry exists only while its authorization is pending; the issuer posts and removes
/// it. Reads take a lock, but only requests for `/.well-known/acme-challenge/` and
/// handshakes offering `acme-tls/1` ever read it.
public final class ChallengeBoard: Sendable {
    struct HTTPAnswer {
        let name: String
        let keyAuthorization: [UInt8]
    }

    private let http = Mutex<[String: HTTPAnswer]>([:])
    private let tls = Mutex<[String: TLSContext]>([:])

    public init() {}

    /// The key authorization for `token`, only when it was asked for `host` (the name being validated).
    public func keyAuthorization(token: String, host: String) -> [UInt8]? {
        http.withLock { answers in
            guard let answer = answers[token], answer.name == host else { return nil }
            return answer.keyAuthorization
        }
    }

    /// The validation certificate for `name`, while its TLS-ALPN-01 challenge is pending.
    public func validationContext(for name: String) -> TLSContext? {
        tls.withLock { $0[name] }
    }

    func postHTTP(token: String, name: String, keyAuthorization: String) {
        http.withLock { $0[token] = HTTPAnswer(name: name, keyAuthorization: Array(keyAuthorization.utf8)) }
    }

    func removeHTTP(token: String) {
        http.withLock { _ = $0.removeValue(forKey: token) }
    }

    func postTLS(name: String, context: TLSContext) {
        tls.withLock { $0[name] = context }
    }

    func removeTLS(name: String) {
        tls.withLock { _ = $0.removeValue(forKey: name) }
    }
}
