import AASATransport

/// Where the replicas of one deployment share their pending challenges (docs/acme.md,
/// "Several replicas"): the issuer posts each one before the CA is asked to validate it, and a
/// replica that gets a check it did not post finds it there. The shared store is one
/// (`StoreChallenges`); every call may block, so only workers and the board's lookup thread
/// make them, never an event loop.
public protocol ChallengeSource: Sendable {
    /// Posts the challenge `key` for `name` with its key authorization (RFC 8555 §8.1).
    func post(_ key: ChallengeKey, name: String, keyAuthorization: String) throws
    func remove(_ key: ChallengeKey)
    /// The name and key authorization posted under `key`, nil when none is.
    func find(_ key: ChallengeKey) throws -> (name: String, keyAuthorization: String)?
    /// Whether the board reads `changes` (a source whose changes no thread of its own
    /// announces: a folder store's inotify).
    var polled: Bool { get }
    /// Challenges written or removed since the last call, without blocking; `overflowed` when
    /// some may have been missed.
    func changes() -> (keys: [(key: ChallengeKey, removed: Bool)], overflowed: Bool)
}

extension ChallengeSource {
    public var polled: Bool { false }
    public func changes() -> (keys: [(key: ChallengeKey, removed: Bool)], overflowed: Bool) { ([], false) }
}

/// One pending challenge: HTTP-01 by its token (RFC 8555 §8.3), TLS-ALPN-01 by the name
/// being validated (RFC 8737 §3), since the handshake names no token.
public enum ChallengeKey: Hashable, Sendable {
    case http(token: String)
    case tls(name: String)

    /// What a check for this challenge waits for while it is looked up.
    package var waitReason: WaitReason {
        switch self {
        case .http(let token): .httpChallenge(token: token)
        case .tls(let name): .tlsChallenge(name: name)
        }
    }

    /// A pre-flight's own token (`Preflight.tokenPrefix`), not a CA's.
    var isPreflight: Bool {
        if case .http(let token) = self { return token.hasPrefix(Preflight.tokenPrefix) }
        return false
    }

    /// Only a token a CA could have issued is ever looked up: base64url (RFC 8555 §8.1), of at
    /// least 128 bits (22 characters; Let's Encrypt and Pebble send 43) and at most 64
    /// characters. Anything else is answered 404 at once.
    public static func isWellFormed(token: some Collection<UInt8>) -> Bool {
        (22...64).contains(token.count)
            && token.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == 0x2D || byte == 0x5F
            }
    }
}
