#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading, writing and waiting on a descriptor: read(2), write(2), recv(2) with MSG_PEEK
/// and poll(2).
extension Posix {
    /// read(2); `.processed(0)` is end of file.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult<
        Int
    > {
        try checkNonBlocking("read") { readDescriptor(fd, buffer.baseAddress, buffer.count) }
    }

    /// lseek(2) back to the start of a file, to read it again.
    package static func rewind(_ fd: Int32) throws(SystemError) {
        _ = try check("lseek") { Int(lseek(fd, 0, SEEK_SET)) }
    }

    /// write(2) of as much of `buffer` as the descriptor takes.
    package static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        try checkNonBlocking("write") { writeDescriptor(fd, buffer.baseAddress, buffer.count) }
    }

    /// Reads a blocking descriptor to its end, or to `limit` bytes, whichever comes first.
    package static func readAll(_ fd: Int32, limit: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, limit))
        var filled = 0
        while filled < bytes.count {
            // Array's closure methods rethrow untyped errors, so the error comes out as a Result.
            let result = bytes.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in
                    try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                }
            }
            switch try result.get() {
            case .processed(0): return Array(bytes[..<filled])
            case .processed(let count): filled += count
            case .wouldBlock: throw SystemError("read", errno: EAGAIN)
            }
        }
        return bytes
    }

    /// Writes all of `bytes` to a blocking descriptor.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String? = nil) throws(SystemError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(SystemError) in try write(fd, UnsafeRawBufferPointer(rebasing: raw[written...])) }
            }
            switch try result.get() {
            // write(2) of a non-zero count returns zero only on a device it cannot go on with.
            case .processed(0): throw SystemError("write", errno: EIO, path: path)
            case .processed(let count): written += count
            case .wouldBlock: throw SystemError("write", errno: EAGAIN, path: path)
            }
        }
    }

    /// recv(2) with MSG_PEEK: the bytes that have arrived, left in the socket;
    /// `.processed(0)` is an orderly close.
    package static func peek(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult<
        Int
    > {
        try checkNonBlocking("recv") { receiveFlagged(fd, buffer.baseAddress, buffer.count, Int32(MSG_PEEK)) }
    }

    /// poll(2) of one descriptor for `events`; the events that happened, empty when the wait
    /// timed out. `milliseconds` is asked again after EINTR, so a wait for a deadline goes on
    /// for the time that remains: a signal ends the wait early, it is no timeout (poll(2)).
    package static func poll(_ fd: Int32, events: Int16, milliseconds: () -> Int32) throws(SystemError) -> Int16 {
        var poller = pollfd(fd: fd, events: events, revents: 0)
        let ready = try check("poll") { pollDescriptors(&poller, 1, milliseconds()) }
        return ready == 0 ? 0 : poller.revents
    }
}

// The calls under other names: inside `Posix` the plain names are its wrappers.
private func readDescriptor(_ fd: Int32, _ base: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, base, count)
}
private func writeDescriptor(_ fd: Int32, _ base: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, base, count) }
private func receiveFlagged(_ fd: Int32, _ base: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    recv(fd, base, count, flags)
}
private func pollDescriptors(_ fds: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32) -> Int32 {
    poll(fds, nfds_t(count), timeout)
}
