import AASASystem

/// A listener that could not be opened, named by its address:
/// `cannot listen on 127.0.0.1:8080: address already in use`.
public struct ListenError: Error, CustomStringConvertible, Sendable {
    public let address: SocketAddress
    /// The call that failed (socket, bind, listen …).
    public let cause: SystemError

    public var description: String {
        let reason = cause.reason
        return "cannot listen on \(address): \(reason.prefix(1).lowercased() + reason.dropFirst())"
    }
}
