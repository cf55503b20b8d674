import AASATransport

/// What a reload publishes to a loop (`ContentBox`): whatever its handler answers from, and
/// the certificates the loop's new TLS connections start with. The loop knows nothing else
/// of it; a connection keeps the certificate store it began with.
public protocol LoopContent: Sendable {
    /// nil: no certificate (a loop without an HTTPS listener, or none loaded yet).
    var certificates: CertificateStore? { get }
}

/// The content of a handler to which nothing is ever published (the admin listener's, which
/// reads the server's state itself): no value of it exists.
extension Never: LoopContent {
    public var certificates: CertificateStore? {
        switch self {}
    }
}
