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

    package func signal() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { Glibc.write(fd, $0.baseAddress, 8) }
    }

    package func drain() {
        var value: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &value) { Glibc.read(fd, $0.baseAddress, 8) }
    }
}
