/// Bounds on what a client may send (RFC 9112 §3: a server should answer an over-long
/// request line with 414 and over-large header fields with 431).
public struct HTTPLimits: Sendable, Equatable {
    public var requestLineBytes = 8192
    public var headerBytes = 16384
    public var headerCount = 64
    /// Connections one loop keeps waiting for an answer from another thread (a paused
    /// handshake, a parked request: `WaitingRoom`), a stranger's queued work bounded
    /// (docs/security.md, "Work a stranger can queue").
    public var waitingConnections = 512

    public init() {}
}
