#if os(Linux)
    import CSystemShims
    @preconcurrency import Glibc

    /// Sockets: socket(2), setsockopt(2), getsockopt(2), bind(2), listen(2), accept4(2), send(2),
    /// sendmsg(2), shutdown(2), connect(2) and getsockname(2), with the Linux flags the server
    /// relies on (SOCK_NONBLOCK, SOCK_CLOEXEC, MSG_NOSIGNAL, MSG_MORE), so they are built on Linux
    /// only. `SocketAddress` (AASATransport) adds the overloads that take and give addresses.
    extension Posix {
        package static func socket(domain: Int32, type: Int32) throws(SystemError) -> Int32 {
            try check("socket") {
                Glibc.socket(domain, type | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            }
        }

        package static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) throws(SystemError) {
            var value = value
            _ = try check("setsockopt") { setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
        }

        /// bind(2) to the address `address` points at (`SocketAddress.withSockAddr` makes one).
        package static func bind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t)
            throws(SystemError)
        {
            _ = try check("bind") { Glibc.bind(fd, address, length) }
        }

        package static func listen(_ fd: Int32, backlog: Int32) throws(SystemError) {
            _ = try check("listen") { Glibc.listen(fd, backlog) }
        }

        /// accept4(2): the new socket is non-blocking and close-on-exec from the start.
        package static func accept(_ fd: Int32, peer: inout sockaddr_storage) throws(SystemError) -> IOResult<Int32> {
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let result = try checkNonBlocking("accept4") {
                withUnsafeMutablePointer(to: &peer) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        Int(CSystemShims_accept4(fd, $0, &length, flags))
                    }
                }
            }
            switch result {
            case .processed(let descriptor): return .processed(Int32(descriptor))
            case .wouldBlock: return .wouldBlock
            }
        }

        /// send(2) with MSG_NOSIGNAL, so a closed peer is EPIPE, never SIGPIPE. `more` adds
        /// MSG_MORE: the kernel holds the bytes so the close that follows sends them and the FIN
        /// in one segment (nginx gets the same with TCP_CORK).
        package static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, more: Bool = false) throws(SystemError)
            -> IOResult<
                Int
            >
        {
            let flags = Int32(MSG_NOSIGNAL) | (more ? Int32(MSG_MORE) : 0)
            return try checkNonBlocking("send") { Glibc.send(fd, buffer.baseAddress, buffer.count, flags) }
        }

        /// shutdown(2) of the sending side: the peer reads an end of file after what was sent.
        /// ENOTCONN (the peer already reset the connection) is no error here: there is nothing
        /// left to end.
        package static func shutdownWrite(_ fd: Int32) throws(SystemError) {
            if Glibc.shutdown(fd, Int32(SHUT_WR)) != 0 && errno != ENOTCONN {
                throw failure("shutdown", errno, path: nil)
            }
        }

        /// sendmsg(2) of `first` then `second` (a response head and a body kept elsewhere) in
        /// one call, with MSG_NOSIGNAL and, with `more`, MSG_MORE as in `send`.
        package static func send(
            _ fd: Int32, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer?, more: Bool = false
        ) throws(SystemError) -> IOResult<Int> {
            guard let second, !second.isEmpty else { return try send(fd, first, more: more) }
            guard !first.isEmpty else { return try send(fd, second, more: more) }
            let flags = Int32(MSG_NOSIGNAL) | (more ? Int32(MSG_MORE) : 0)
            var vectors = (
                iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count),
                iovec(iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress), iov_len: second.count)
            )
            return try withUnsafeMutableBytes(of: &vectors) { raw throws(SystemError) in
                var message = msghdr()
                message.msg_iov = raw.baseAddress?.assumingMemoryBound(to: iovec.self)
                message.msg_iovlen = 2
                return try checkNonBlocking("sendmsg") { Glibc.sendmsg(fd, &message, flags) }
            }
        }

        /// connect(2) of a non-blocking socket: true when connected at once, false while it goes
        /// on (EINPROGRESS, or EALREADY after an interrupted call: connect(2)); then poll(2) for
        /// POLLOUT and `checkConnected`.
        package static func connect(
            _ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t
        ) throws(SystemError) -> Bool {
            do throws(SystemError) {
                _ = try check("connect") { Glibc.connect(fd, address, length) }
                return true
            } catch let error where error.errno == EINPROGRESS || error.errno == EALREADY {
                return false
            }
        }

        /// The outcome of a non-blocking connect(2) once the socket is writable: SO_ERROR, as
        /// connect(2) says to read it.
        package static func checkConnected(_ fd: Int32) throws(SystemError) {
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = try check("getsockopt") { getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) }
            if code != 0 { throw SystemError("connect", errno: code) }
        }

        /// getsockopt(2) of an integer option (SO_TYPE, SO_ACCEPTCONN …).
        package static func option(_ fd: Int32, level: Int32, name: Int32) throws(SystemError) -> Int32 {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = try check("getsockopt") { getsockopt(fd, level, name, &value, &length) }
            return value
        }

        /// getsockname(2): the socket's own address, as the kernel stores it.
        package static func socketName(_ fd: Int32) throws(SystemError) -> sockaddr_storage {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = try check("getsockname") {
                withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
                }
            }
            return storage
        }
    }
#endif
