import AASATransport
@preconcurrency import Glibc

/// What a handler may know of the connection a request came on: who the peer is and whether
/// it spoke TLS, nothing it could change.
public struct RequestClient {
    private unowned(unsafe) let connection: Connection

    init(_ connection: Connection) {
        self.connection = connection
    }

    /// The peer's address (a trusted proxy's, behind one).
    package var peer: sockaddr_storage { connection.peer }

    /// The peer as the shares of work strangers can queue count it (`ClientSource`).
    package var source: UInt64 { ClientSource.key(connection.peer) }

    /// The request came over TLS (the HTTPS listener).
    package var isSecure: Bool { connection.tls != nil }
}
