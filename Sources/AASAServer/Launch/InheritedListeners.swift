import AASATransport

/// The sockets systemd passed (`SocketActivation`), each matched to the configured listener
/// whose address it covers (`InheritedSocket.covers`: the same address, or a wildcard on the
/// same port): that listener serves from it instead of binding, and a socket wider than its
/// listener's address answers only that address (`InheritedSocket.scope`). A configured
/// listener without one binds as usual. A passed socket no listener has is closed with a
/// warning (`unmatched`): an upgrade brings the package's socket unit to a server whose config
/// file another release let the operator change, and it must start all the same. A passed
/// socket on a listener's port that does not cover its address is refused (`conflicting`): the
/// listener could not bind beside it, and the refusal names the socket unit.
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
        let configured = listeners.compactMap { entry in entry.address.map { "\(entry.kind) \($0)" } }
        for var socket in sockets {
            // The listener with the socket's own address first, then one it covers.
            let covered = listeners.filter { $0.address.map(socket.covers) ?? false }
            guard let (kind, address) = covered.first(where: { $0.address == socket.address }) ?? covered.first,
                let address
            else {
                if let other = listeners.first(where: { $0.address.map(socket.conflicts) ?? false }) {
                    throw .conflicting(socket, configured: "\(other.kind) \(other.address.map { "\($0)" } ?? "")")
                }
                unmatched.append(.unmatched(socket, configured: configured))
                continue
            }
            // A wildcard socket around two listeners' addresses: neither could bind beside it.
            if let second = covered.first(where: { $0.kind != kind }) {
                throw .conflicting(socket, configured: "\(second.kind) \(second.address.map { "\($0)" } ?? "")")
            }
            if socket.name != kind && listeners.contains(where: { $0.kind == socket.name }) {
                throw .misnamed(socket, listener: kind)
            }
            if address != socket.address { socket.scope = address }
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
