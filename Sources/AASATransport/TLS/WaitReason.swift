/// What a paused handshake or a parked request waits for, answered by another thread: the
/// loops are woken with it (`LoopControl.wake(for:)`), and each retries only the connections
/// that wait for it (docs/ARCHITECTURE.md, "The path of a request"). Made only when a wait
/// begins or ends, never per request.
package enum WaitReason: Hashable, Sendable {
    /// A certificate being loaded, by its chain file (`CertificateCache`).
    case certificate(chain: String)
    /// Another replica's HTTP-01 key authorization being looked up, by token.
    case httpChallenge(token: String)
    /// Another replica's TLS-ALPN-01 validation certificate being looked up, by name.
    case tlsChallenge(name: String)
    /// An on-demand certificate on its way: answered by a new snapshot (every wait is tried
    /// again then) or an order that failed.
    case onDemand(name: String)
}
