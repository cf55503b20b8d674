/// Bounds on what a client may send (RFC 9112 §3: a server should answer an over-long
/// request line with 414 and over-large header fields with 431).
public struct HTTPLimits: Sendable, Equatable {
    public var requestLineBytes = 8192
    public var headerBytes = 16384
    public var headerCount = 64

    public init() {}
}
