/// A listening socket systemd passed to the server (sd_listen_fds(3)): its descriptor, the name
/// its socket unit gave it (`FileDescriptorName=`, `unknown` without one) and the address it is
/// bound to, which decides the listener it serves.
public struct InheritedSocket: Sendable, CustomStringConvertible {
    public let fd: Int32
    public let name: String
    public let address: SocketAddress
    /// An IPv6 socket's IPV6_V6ONLY (ipv6(7)): without it, `[::]:P` takes IPv4 connections too.
    public let v6Only: Bool
    /// The configured address this socket serves when it is wider (a wildcard covering it):
    /// connections that arrive on another of its addresses are closed at accept.
    public var scope: SocketAddress?

    public init(fd: Int32, name: String, address: SocketAddress, v6Only: Bool = true) {
        self.fd = fd
        self.name = name
        self.address = address
        self.v6Only = v6Only
    }

    /// `descriptor 3 (http) on 0.0.0.0:80`.
    public var description: String { "descriptor \(fd) (\(name)) on \(address)" }

    /// The socket unit that holds the socket, as its messages name it: the unit itself when the
    /// name is the default (`FileDescriptorName=` is the unit's name, systemd.socket(5)).
    public var unit: String {
        name.hasSuffix(".socket")
            ? "the socket unit \(name)" : "the socket unit that passed it (FileDescriptorName=\(name))"
    }

    /// Whether connections to `configured` arrive on this socket: the same address, or the
    /// same port on a wildcard address of its family (`0.0.0.0:P` takes every IPv4 address's
    /// port P; `[::]:P` every IPv6 one and, without IPV6_V6ONLY, every IPv4 one).
    public func covers(_ configured: SocketAddress) -> Bool {
        guard configured.port == address.port else { return false }
        if configured == address { return true }
        guard address.isWildcard else { return false }
        switch (address.family, configured.family) {
        case (.ipv4, .ipv4), (.ipv6, .ipv6): return true
        case (.ipv6, .ipv4): return !v6Only
        case (.ipv4, .ipv6): return false
        }
    }

    /// Whether a listener bound to `configured` (as `Listener.open` binds: IPv6 with
    /// IPV6_V6ONLY) would fail beside this socket with EADDRINUSE: the same port and one of
    /// the two takes the other's address.
    public func conflicts(with configured: SocketAddress) -> Bool {
        guard configured.port == address.port else { return false }
        if covers(configured) { return true }
        return configured.isWildcard && configured.family == address.family
    }
}
