#if os(Linux)
    import CSystemShims
    @preconcurrency import Glibc

    /// One epoll instance (epoll(7)). Events carry `fd | generation << 32` in `data.u64`, so an
    /// event for a descriptor that was closed and reused in the same batch is recognised and
    /// dropped (epoll(7): events may name a descriptor already closed).
    package struct Epoll: ~Copyable {
        package let fd: Int32

        package static let readable = EPOLLIN.rawValue
        package static let writable = EPOLLOUT.rawValue
        package static let hangUp = EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
        package static let edgeTriggered = CSystemShims_EPOLLET

        package init() throws(SystemError) {
            fd = try Posix.check("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        }

        deinit {
            Posix.close(fd)
        }

        package func add(_ descriptor: Int32, events: UInt32, data: UInt64) throws(SystemError) {
            try control(EPOLL_CTL_ADD, descriptor, events: events, data: data)
        }

        package func modify(_ descriptor: Int32, events: UInt32, data: UInt64) throws(SystemError) {
            try control(EPOLL_CTL_MOD, descriptor, events: events, data: data)
        }

        /// ENOENT (never added) is no error for a caller about to close the descriptor; EBADF
        /// still stops the process (`Posix.failure`).
        package func remove(_ descriptor: Int32) {
            var event = epoll_event()
            _ = try? Posix.check("epoll_ctl") { epoll_ctl(fd, EPOLL_CTL_DEL, descriptor, &event) }
        }

        private func control(_ operation: Int32, _ descriptor: Int32, events: UInt32, data: UInt64) throws(SystemError)
        {
            var event = epoll_event()
            event.events = events
            event.data.u64 = data
            _ = try Posix.check("epoll_ctl") { epoll_ctl(fd, operation, descriptor, &event) }
        }

        /// Waits up to `timeout` milliseconds; EINTR counts as "no events".
        package func wait(into events: UnsafeMutableBufferPointer<epoll_event>, timeout: Int32) throws(SystemError)
            -> Int
        {
            let count = epoll_wait(fd, events.baseAddress, Int32(events.count), timeout)
            if count >= 0 { return Int(count) }
            let code = errno
            if code == EINTR { return 0 }
            throw Posix.failure("epoll_wait", code, path: nil)
        }
    }
#endif
