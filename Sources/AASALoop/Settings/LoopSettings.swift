/// What every event loop is configured with, in the units the loop uses, fixed when the loop
/// is made. What a handler needs of the settings is given to the handler itself.
package struct LoopSettings: Sendable {
    let handshakeTimeout: UInt64
    let requestHeadTimeout: UInt64
    let keepAliveTimeout: UInt64
    let writeTimeout: UInt64
    let shutdownTimeout: UInt64
    let limits: HTTPLimits
    let logFormat: LogFormat
    package var accessLog: Bool
    /// Count requests by site name too (`--metrics-per-site on`); off, a request adds to a
    /// fixed slot only.
    package var perSiteMetrics = false
    /// Queued output at or past this stops parsing pipelined requests and reading from the
    /// client until it drains, so a client that sends and never reads costs at most this
    /// plus one response and one read. 256 KiB is two of the largest files the size guard
    /// allows: a pipelining client that does read is never starved while the kernel's send
    /// buffer empties.
    package let outputHighWater = 256 * 1024
    /// One connection's share of a loop wake-up: bytes read and requests answered. Past
    /// either, it waits for the loop's next turn behind the others, so no client holds a
    /// loop for longer than answering this much (a few hundred microseconds).
    let readBytesPerTurn = 256 * 1024
    package var requestsPerTurn = 64
    /// The admin loop's share: each request may render a page of 100 sites.
    package static let adminRequestsPerTurn = 4
    /// Connections accepted from one listener per turn (the rest wait for the next).
    let acceptsPerTurn = 64
    /// The loops' share of the descriptor limit, and which share this loop takes; nil (tests
    /// of a loop alone) accepts until EMFILE.
    package var descriptors: DescriptorBudget?
    package var descriptorRole = DescriptorBudget.Role.serving
    /// A lingering close (RFC 9112 §9.6) reads and drops at most this much, for at most
    /// `lingerTimeout`: enough for a client to finish sending a refused request and read
    /// the answer, too little to hold a connection open for long.
    let lingerBytes = 1024 * 1024
    let lingerTimeout: UInt64 = 3_000_000_000
    /// This loop's share of `--max-connections` and `--max-handshakes` (`share(of:loop:loops:)`):
    /// past the first, the longest idle keep-alive connection is closed for a new one, or
    /// accepting waits; past the second, the oldest handshake in progress is closed
    /// (docs/security.md, "Connections and handshakes in total").
    package var maxConnections = Int.max
    package var maxHandshakes = Int.max
    /// After this many closes, the loop gives the freed memory back to the system
    /// (malloc_trim(3)) once `trimDelay` has passed: at most once per delay, never per request.
    let trimAfterCloses = 64
    let trimDelay: UInt64 = 1_000_000_000
    /// How long an idle TLS connection keeps OpenSSL's buffers (about 34 KiB): long enough
    /// for the next request of a busy client, short enough that idle ones cost little.
    let tlsBufferHold: UInt64 = 100_000_000

    func duration(_ timeoutClass: TimeoutClass) -> UInt64 {
        switch timeoutClass {
        case .handshake: handshakeTimeout
        case .requestHead: requestHeadTimeout
        case .keepAlive: keepAliveTimeout
        case .keepAliveHoldingBuffers: min(tlsBufferHold, keepAliveTimeout)
        case .keepAliveReleased: keepAliveTimeout - min(tlsBufferHold, keepAliveTimeout)
        case .write: writeTimeout
        case .linger: lingerTimeout
        }
    }

    /// Loop `index`'s part of a server-wide `total` split over `loops` (the remainder goes
    /// to the first loops), at least one: each loop counts its own connections, lock-free.
    package static func share(of total: Int, loop index: Int, loops: Int) -> Int {
        guard total < Int.max, loops > 0 else { return total }
        return max(1, total / loops + (index < total % loops ? 1 : 0))
    }

    package init(timeouts: Timeouts, limits: HTTPLimits, logFormat: LogFormat, accessLog: Bool) {
        func nanoseconds(_ seconds: Double) -> UInt64 { UInt64(max(0.001, seconds) * 1_000_000_000) }
        handshakeTimeout = nanoseconds(timeouts.handshake)
        requestHeadTimeout = nanoseconds(timeouts.requestHead)
        keepAliveTimeout = nanoseconds(timeouts.keepAlive)
        writeTimeout = nanoseconds(timeouts.write)
        shutdownTimeout = nanoseconds(timeouts.shutdown)
        self.limits = limits
        self.logFormat = logFormat
        self.accessLog = accessLog
    }
}
