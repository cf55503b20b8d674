import AASASystem
@preconcurrency import Glibc

/// Listening sockets. Every loop has its own, bound to the same address with SO_REUSEPORT,
/// so the kernel spreads new connections across loops (lwan, h2o); or, with a socket systemd
/// passed, a descriptor of its own for that one socket (`adopt`).
public enum Listener {
    /// A bound, non-blocking socket. `reusePort` sets SO_REUSEPORT, for the loops' shared
    /// listeners; the admin listener has one socket, and must fail if another process holds its
    /// port. `listening: false` binds without listening (the probe in `openGroup`).
    public static func open(
        _ address: SocketAddress, backlog: Int32 = 4096, deferAcceptSeconds: Int32 = 10, reusePort: Bool = true,
        listening: Bool = true
    ) throws(SystemError) -> Int32 {
        let fd = try Posix.socket(
            domain: address.family == .ipv4 ? AF_INET : AF_INET6, type: Int32(SOCK_STREAM.rawValue))
        do {
            try Posix.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
            if reusePort { try Posix.setOption(fd, level: SOL_SOCKET, name: SO_REUSEPORT, value: 1) }
            if address.family == .ipv6 {
                try Posix.setOption(fd, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY, value: 1)
            }
            // Responses are written whole, so Nagle's algorithm would only add latency;
            // accepted sockets inherit the option, which saves a call per connection.
            try Posix.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
            // Wake accept only once the client has sent something (tcp(7) TCP_DEFER_ACCEPT):
            // the request is then read at once, and silent connections never reach a loop.
            try Posix.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_DEFER_ACCEPT, value: deferAcceptSeconds)
            try Posix.bind(fd, address)
            if listening { try Posix.listen(fd, backlog: backlog) }
            return fd
        } catch {
            Posix.close(fd)
            throw error
        }
    }

    /// One listener per loop on `address`; with port 0 the first one picks the port and the
    /// others join it.
    ///
    /// SO_REUSEPORT would also let us join another process's group on the same port (the
    /// kernel only asks that both be the same user), which would silently split the traffic
    /// between two servers. So a fixed port is first bound once *without* SO_REUSEPORT: that
    /// bind fails with EADDRINUSE exactly when anything else listens there (SO_REUSEADDR
    /// still ignores connections in TIME_WAIT, socket(7)). The probe is closed before our
    /// group binds; the window between the two is the only one an outsider could use.
    public static func openGroup(_ address: SocketAddress, count: Int) throws(ListenError) -> (fds: [Int32], port: Int)
    {
        var fds: [Int32] = []
        do {
            if address.port != 0 {
                Posix.close(try open(address, deferAcceptSeconds: 0, reusePort: false, listening: false))
            }
            let first = try open(address)
            fds.append(first)
            let port = Posix.localPort(first)
            let bound = address.with(port: port)
            for _ in 1..<max(1, count) { fds.append(try open(bound)) }
            return (fds, port)
        } catch {
            fds.forEach(Posix.close)
            throw ListenError(address: address, cause: error)
        }
    }

    /// The loops' listeners on a socket systemd passed: the socket for the first loop and a
    /// duplicate for each other, all one queue. The queue outlives the process: systemd holds
    /// the socket too, so a loop closing its descriptor at stop leaves the connections not yet
    /// accepted to the next process. Each loop that has room is woken for a connection and
    /// the first to accept it takes it. The options are `open`'s.
    public static func adopt(_ socket: InheritedSocket, count: Int, deferAcceptSeconds: Int32 = 10)
        throws(ListenError) -> (fds: [Int32], port: Int)
    {
        var fds: [Int32] = []
        do {
            try Posix.setNonBlocking(socket.fd)
            try Posix.setOption(socket.fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
            try Posix.setOption(
                socket.fd, level: Int32(IPPROTO_TCP), name: TCP_DEFER_ACCEPT, value: deferAcceptSeconds)
            for _ in 1..<max(1, count) { fds.append(try Posix.duplicate(socket.fd)) }
            return ([socket.fd] + fds, socket.address.port)
        } catch {
            fds.forEach(Posix.close)
            throw ListenError(address: socket.address, cause: error)
        }
    }
}
