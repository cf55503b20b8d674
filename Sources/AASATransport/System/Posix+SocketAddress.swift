import AASASystem
@preconcurrency import Glibc

/// The socket calls that take or give a `SocketAddress`, over AASASystem's wrappers.
extension Posix {
    package static func bind(_ fd: Int32, _ address: SocketAddress) throws(SystemError) {
        try address.withSockAddr { pointer, length in
            Result { () throws(SystemError) in try bind(fd, pointer, length) }
        }.get()
    }

    /// getsockname(2) of an IPv4 or IPv6 socket.
    package static func localAddress(_ fd: Int32) throws(SystemError) -> SocketAddress {
        SocketAddress(try socketName(fd))
    }

    /// The socket's own port, 0 when getsockname(2) fails.
    package static func localPort(_ fd: Int32) -> Int {
        (try? socketName(fd)).map { SocketAddress($0).port } ?? 0
    }
}
