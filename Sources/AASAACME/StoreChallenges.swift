import AASAStore

/// Pending challenges in the store replicas share (docs/acme.md, "Several replicas"):
/// `challenges/http-01/TOKEN` and `challenges/tls-alpn-01/NAME` (and the pre-flight's tokens,
/// `preflight/TOKEN`, `Preflight`), each holding the name being
/// validated, a line break, and the key authorization. A TLS-ALPN-01 check is answered with a
/// validation certificate each replica makes from the key authorization, so no private key
/// goes through the store. The board counts the reads it makes through this
/// (`aasa_acme_challenge_lookups_total`: "store queries per challenge").
public final class StoreChallenges: ChallengeSource {
    let store: any SharedStore
    /// A folder store's challenge folders watched (PostgreSQL's notices come through
    /// `SharedStore.observeChanges` instead).
    let watch: FolderChallengeWatch?
    /// Why a folder store's challenges are not watched, when they are not.
    public let watchProblem: String?
    /// A key authorization is a token, a dot and a thumbprint: far under this.
    static let valueLimit = 1024

    public init(store: any SharedStore) {
        self.store = store
        if let folder = store as? FolderStore {
            switch FolderChallengeWatch.make(store: folder) {
            case .success(let made): (watch, watchProblem) = (made, nil)
            case .failure(let problem): (watch, watchProblem) = (nil, problem.description)
            }
        } else {
            (watch, watchProblem) = (nil, nil)
        }
    }

    public var polled: Bool { watch != nil }

    public func changes() -> (keys: [(key: ChallengeKey, removed: Bool)], overflowed: Bool) {
        guard let watch else { return ([], false) }
        let (keys, overflowed) = watch.changes()
        return (keys.compactMap { key, removed in Self.challenge(key).map { ($0, removed) } }, overflowed)
    }

    static func key(_ key: ChallengeKey) -> StoreKey? {
        switch key {
        case .http(let token) where token.hasPrefix(Preflight.tokenPrefix): StoreKey("preflight/" + token)
        case .http(let token): StoreKey("challenges/http-01/" + token)
        case .tls(let name): StoreKey("challenges/tls-alpn-01/" + name)
        }
    }

    /// The challenge a store key names (`challenges/http-01/TOKEN`, `challenges/tls-alpn-01/NAME`,
    /// and a pre-flight's `preflight/TOKEN`, read ahead as a challenge is, so another replica's
    /// check rarely takes a lookup's share).
    public static func challenge(_ key: StoreKey) -> ChallengeKey? {
        let parts = key.components
        if parts.count == 2, parts[0] == "preflight", parts[1].hasPrefix(Preflight.tokenPrefix) {
            return .http(token: String(parts[1]))
        }
        guard parts.count == 3, parts[0] == "challenges" else { return nil }
        switch parts[1] {
        case "http-01": return .http(token: String(parts[2]))
        case "tls-alpn-01": return .tls(name: String(parts[2]))
        default: return nil
        }
    }

    public func post(_ key: ChallengeKey, name: String, keyAuthorization: String) throws {
        guard let storeKey = Self.key(key) else { throw StoreError.refused("not a challenge key: \(key)") }
        try store.store(storeKey, Array((name + "\n" + keyAuthorization).utf8))
    }

    public func remove(_ key: ChallengeKey) {
        guard let storeKey = Self.key(key) else { return }
        try? store.delete(storeKey)
    }

    public func find(_ key: ChallengeKey) throws -> (name: String, keyAuthorization: String)? {
        guard let storeKey = Self.key(key) else { return nil }
        guard let value = try store.load(storeKey), value.count <= Self.valueLimit,
            let newline = value.firstIndex(of: UInt8(ascii: "\n"))
        else { return nil }
        return (
            String(decoding: value[..<newline], as: UTF8.self),
            String(decoding: value[(newline + 1)...], as: UTF8.self)
        )
    }
}
