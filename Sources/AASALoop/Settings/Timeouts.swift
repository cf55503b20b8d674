/// Deadlines on every connection, in seconds (monotonic clock). A client that is slow to
/// send its request head, idles between requests, or stops reading responses is closed.
public struct Timeouts: Sendable, Equatable {
    /// From accepting a TLS connection to the end of its handshake.
    public var handshake: Double = 10
    /// From the first byte of a request to the end of its head (h2o's `req_timeout`).
    public var requestHead: Double = 10
    /// Between requests on a keep-alive connection, and before the first one.
    public var keepAlive: Double = 30
    /// Without progress while a response is being written.
    public var write: Double = 10
    /// How long a graceful stop waits for responses in flight.
    public var shutdown: Double = 10

    public init() {}
}
