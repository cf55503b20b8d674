import AASASystem

/// Why the sockets systemd passed cannot be used: start-up stops and says which one
/// (docs/deployment.md, "Restarts and upgrades").
public enum SocketActivationError: Error, CustomStringConvertible, Sendable {
    /// `LISTEN_FDS` (or `LISTEN_PID`) is not a number, or an impossible one.
    case invalidVariable(name: String, value: String)
    /// `LISTEN_FDNAMES` names another number of descriptors than `LISTEN_FDS` counts.
    case namesMismatch(names: Int, descriptors: Int)
    /// A descriptor `LISTEN_FDS` counts is not open.
    case notOpen(fd: Int32)
    /// A passed descriptor that is not a listening IPv4 or IPv6 TCP socket (a datagram or Unix
    /// socket, a FIFO, a socket not listening).
    case notListeningTCP(fd: Int32, name: String)
    /// A call on a passed descriptor failed.
    case failed(fd: Int32, cause: SystemError)
    /// A passed socket whose address no configured listener has; `configured` lists those
    /// there are (`http 0.0.0.0:80`).
    case unmatched(InheritedSocket, configured: [String])
    /// A passed socket named for one listener (`http`, `https`, `admin`) but bound to the
    /// address of `listener`.
    case misnamed(InheritedSocket, listener: String)
    /// Two passed sockets for the same listener.
    case duplicate(InheritedSocket, listener: String)
    /// A passed socket on a configured listener's port that does not cover its address (or
    /// covers a second listener's): the listener could not bind beside it, as the socket unit
    /// holds the port (`configured`: `http 0.0.0.0:80`).
    case conflicting(InheritedSocket, configured: String)

    public var description: String {
        let advice = "the socket unit's ListenStream= must name the addresses of --http, --https and --admin"
        switch self {
        case .invalidVariable(let name, let value):
            return "systemd passed \(name)=\"\(value)\", which is not a count of descriptors"
        case .namesMismatch(let names, let descriptors):
            return "systemd passed \(descriptors) descriptors (LISTEN_FDS) but \(names) names (LISTEN_FDNAMES)"
        case .notOpen(let fd):
            return "systemd's LISTEN_FDS counts descriptor \(fd), which is not open"
        case .notListeningTCP(let fd, let name):
            return "systemd passed descriptor \(fd) (\(name)), which is not a listening TCP socket (ListenStream=)"
        case .failed(let fd, let cause):
            return "cannot use descriptor \(fd) from systemd: \(cause)"
        case .unmatched(let socket, let configured):
            let listeners =
                configured.isEmpty ? "no listener is configured" : "listeners: \(configured.joined(separator: ", "))"
            return "systemd passed \(socket), which matches no configured listener (\(listeners)); \(advice)"
        case .misnamed(let socket, let listener):
            return "systemd passed \(socket), named \(socket.name) but bound to the \(listener) listener's address"
        case .duplicate(let socket, let listener):
            return "systemd passed \(socket), a second socket for the \(listener) listener"
        case .conflicting(let socket, let configured):
            return "systemd passed \(socket), which holds the port of the listener \(configured) without covering "
                + "its address, so the listener cannot bind; change \(socket.unit) (its ListenStream= must be "
                + "the listener's address, or 0.0.0.0:PORT or [::]:PORT around it) or the listener's address"
        }
    }
}
