#if os(Linux)
    import CSystemShims
    @preconcurrency import Glibc

    /// An eventfd(2) that another thread writes to wake an event loop out of epoll_wait.
    package final class WakeUpEvent: Sendable {
        package let fd: Int32

        package init() throws(SystemError) {
            fd = try Posix.check("eventfd") { eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)) }
        }

        deinit {
            Posix.close(fd)
        }

        /// Adds one to the counter. EAGAIN (the counter at its maximum, eventfd(2)) still wakes
        /// the loop, so it is no failure; nothing else can fail on an eventfd this loop owns.
        package func signal() {
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) { try? Posix.write(fd, $0) }
        }

        /// Resets the counter; EAGAIN when nothing was signalled.
        package func drain() {
            var value: UInt64 = 0
            _ = withUnsafeMutableBytes(of: &value) { try? Posix.read(fd, into: $0) }
        }
    }
#endif
