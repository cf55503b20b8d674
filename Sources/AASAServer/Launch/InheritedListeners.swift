import AASATransport

/// The sockets systemd passed (`SocketActivation`), each matched to the configured listener
/// with its address: that listener serves from it instead of binding. A configured listener
/// without one binds as usual. A passed socket no listener has is closed with a warning
/// (`unmatched`): an upgrade brings the package's socket unit to a server whose config file
/// another release let the operator change, and it must start all the same.
public struct InheritedListeners: Sendable {
    public var http: InheritedSocket?
    public var https: InheritedSocket?
    public var admin: InheritedSocket?
    /// Passed sockets whose address no listener has, and why, for the log.
    public private(set) var unmatched: [SocketActivationError] = []

    public init() {}

    /// Matches `sockets` to the listeners of `configuration`. A socket named for a listener
    /// (`FileDescriptorName=http`, `https`, `admin`) must have that listener's address; other
    /// names only label it in messages.
    public init(_ sockets: [InheritedSocket], configuration: ServerConfiguration) throws(SocketActivationError) {
        let listeners: [(kind: String, address: SocketAddress?)] = [
            ("http", configuration.http), ("https", configuration.https), ("admin", configuration.admin),
        ]
        for socket in sockets {
            guard let kind = listeners.first(where: { $0.address == socket.address })?.kind else {
                unmatched.append(
                    .unmatched(
                        socket,
                        configured: listeners.compactMap { entry in entry.address.map { "\(entry.kind) \($0)" } }))
                continue
            }
            if socket.name != kind && listeners.contains(where: { $0.kind == socket.name }) {
                throw .misnamed(socket, listener: kind)
            }
            let slot: WritableKeyPath<InheritedListeners, InheritedSocket?> =
                kind == "http" ? \.http : kind == "https" ? \.https : \.admin
            guard self[keyPath: slot] == nil else { throw .duplicate(socket, listener: kind) }
            self[keyPath: slot] = socket
        }
    }

    /// The sockets systemd passed to this process, matched to `configuration`'s listeners.
    public static func take(for configuration: ServerConfiguration) throws(SocketActivationError)
        -> InheritedListeners
    {
        try InheritedListeners(SocketActivation.take(), configuration: configuration)
    }
}
