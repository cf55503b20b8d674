#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Pipes, hard links, descriptor flags, receiving and waiting on several descriptors.
/// Portable (POSIX).
extension Posix {
    /// pipe(2), both ends non-blocking and close-on-exec (fcntl(2)): (read end, write end).
    package static func pipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        _ = try check("pipe") { makePipe(&ends) }
        do throws(SystemError) {
            for end in ends {
                try setCloseOnExec(end)
                try setNonBlocking(end)
            }
        } catch {
            for end in ends { close(end) }
            throw error
        }
        return (ends[0], ends[1])
    }

    /// fcntl(2) F_SETFD FD_CLOEXEC: the descriptor is closed in a program this one executes.
    package static func setCloseOnExec(_ fd: Int32) throws(SystemError) {
        _ = try check("fcntl") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    /// Whether `fd` is an open descriptor (fcntl(2) F_GETFD: EBADF otherwise).
    package static func isOpen(_ fd: Int32) -> Bool {
        fcntl(fd, F_GETFD) >= 0
    }

    /// link(2): `target` names the same file as `source`.
    package static func hardLink(_ source: String, to target: String) throws(SystemError) {
        _ = try check("link", path: source) { link(source, target) }
    }

    /// recv(2) without flags; `.processed(0)` is an orderly close.
    package static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError)
        -> IOResult<Int>
    {
        try checkNonBlocking("recv") { receiveBytes(fd, buffer.baseAddress, buffer.count) }
    }

    /// poll(2) of several descriptors for up to `milliseconds` (EINTR ends the wait as a
    /// timeout would; the callers wait in a loop): how many have events, in their `revents`.
    @discardableResult
    package static func poll(_ descriptors: inout [pollfd], milliseconds: Int32) -> Int {
        let count = descriptors.withUnsafeMutableBufferPointer {
            pollMany($0.baseAddress, nfds_t($0.count), milliseconds)
        }
        return Int(max(count, 0))
    }
}

// The calls under other names: inside `Posix` the plain names are its wrappers.
private func makePipe(_ ends: inout [Int32]) -> Int32 { pipe(&ends) }
private func receiveBytes(_ fd: Int32, _ base: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    recv(fd, base, count, 0)
}
private func pollMany(_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeout: Int32) -> Int32 {
    poll(fds, count, timeout)
}
