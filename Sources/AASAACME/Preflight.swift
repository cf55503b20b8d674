import AASASystem
import AASATransport

/// The check before an order (docs/acme.md, "Pre-flight"): the name must resolve, and a
/// request for `http://NAME:PORT/.well-known/acme-challenge/TOKEN`, sent to each address it
/// resolves to with `Host: NAME`, must come back from this deployment, as the CA's HTTP-01
/// validation would. TOKEN is new for each check and posted like an HTTP-01 challenge
/// (`ChallengeBoard.postHTTP`), so the store holds it (`preflight/TOKEN`) and any replica
/// answers it; the answer is a random proof only the store and this check know, so another
/// server answering for the name is told apart from this one. A failed check costs the CA
/// nothing: the name waits (`waiting_dns`) instead of being ordered. Blocking: ACME's workers
/// run it.
public struct Preflight: Sendable {
    public let resolver: NameResolver
    /// Where the CA connects for HTTP-01 (80; tests point it at their own listener).
    public let port: Int
    /// Each HTTP request's deadline.
    public let timeout: Double
    /// False when HTTP-01 is not in use (`--http off`, `--acme-challenges tls-alpn-01`): the CA
    /// then connects to the HTTPS port only, and the check is the name's resolution alone.
    public let requestsHTTP: Bool

    public init(resolver: NameResolver, port: Int, timeout: Double = 5, requestsHTTP: Bool = true) {
        self.resolver = resolver
        self.port = port
        self.timeout = timeout
        self.requestsHTTP = requestsHTTP
    }

    /// Tokens of pre-flight checks begin so (still a well-formed HTTP-01 token, 42 characters),
    /// which is how the store's lookup tells them from a CA's (`StoreChallenges`).
    public static let tokenPrefix = "preflight-"

    public enum Outcome: Equatable, Sendable {
        /// The name resolves and one of its addresses answered with the proof, none otherwise.
        case reaches
        /// Why the CA would fail: the name does not resolve, or no address answers as this
        /// deployment does.
        case notHere(String)
    }

    /// What one check did, for the figures (`aasa_acme_preflight_*`) and logs.
    public struct Cost: Sendable {
        public var dnsQueries = 0
        public var requests = 0
        public var seconds = 0.0
    }

    /// Checks `name`, posting and then removing its token on `board`.
    /// `count` random bytes from the system's generator, eight per getrandom(2): a byte at a
    /// time (`UInt8.random`) cost 56 system calls per check (7 now).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes += $0 }
        }
        return Array(bytes.prefix(count))
    }

    public func check(_ name: String, board: ChallengeBoard, cost: inout Cost) -> Outcome {
        let started = MonotonicClock.now()
        defer { cost.seconds += Double(MonotonicClock.now() - started) / 1e9 }
        let addresses: [SocketAddress]
        switch resolver.resolve(name, port: port, queries: &cost.dnsQueries) {
        case .success(let found): addresses = found
        case .failure(let failure): return .notHere("\(name) does not resolve: \(failure)")
        }
        guard requestsHTTP else { return .reaches }
        let token = Self.tokenPrefix + Base64URL.encode(Self.randomBytes(24))
        let proof = Base64URL.encode(Self.randomBytes(32))
        do { try board.postHTTP(token: token, name: name, keyAuthorization: proof) } catch {
            return .notHere("the store cannot hold the pre-flight token: \(error)")
        }
        defer { board.removeHTTP(token: token) }
        let client = LoopbackHTTPClient(timeout: timeout)
        var reached = false
        var unreachableIPv6: String?
        // At most a few addresses: a CA tries one or two, and a long list must not stall a worker.
        for address in addresses.prefix(4) {
            cost.requests += 1
            switch client.get("/.well-known/acme-challenge/" + token, from: address, host: name) {
            case .success(let response) where response.status == 200 && response.body == Array(proof.utf8):
                reached = true
            case .success(let response):
                // Another server answers for the name: the CA would see it and fail.
                return .notHere("http://\(name):\(port) at \(address.host) is another server (HTTP \(response.status))")
            case .failure(let failure) where address.family == .ipv6:
                unreachableIPv6 = unreachableIPv6 ?? "http://\(name):\(port) at \(address.host): \(failure)"
            case .failure(let failure):
                return .notHere("http://\(name):\(port) at \(address.host): \(failure)")
            }
        }
        // Every address must answer: a CA may use any of them. It falls back from an IPv6
        // address it cannot connect to (no route) to IPv4, never from IPv4 or from a wrong answer.
        return reached ? .reaches : .notHere(unreachableIPv6 ?? "\(name) has no address")
    }
}
