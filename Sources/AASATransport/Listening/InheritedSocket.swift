/// A listening socket systemd passed to the server (sd_listen_fds(3)): its descriptor, the name
/// its socket unit gave it (`FileDescriptorName=`, `unknown` without one) and the address it is
/// bound to, which decides the listener it serves.
public struct InheritedSocket: Sendable, CustomStringConvertible {
    public let fd: Int32
    public let name: String
    public let address: SocketAddress

    public init(fd: Int32, name: String, address: SocketAddress) {
        self.fd = fd
        self.name = name
        self.address = address
    }

    /// `descriptor 3 (http) on 0.0.0.0:80`.
    public var description: String { "descriptor \(fd) (\(name)) on \(address)" }
}
