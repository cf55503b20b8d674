#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin, errno-exact wrappers over the system calls the program uses (swift-nio's
/// `System.swift` is the model). Each reads `errno` right after a failed call, retries
/// EINTR, and turns EAGAIN into `.wouldBlock`. `close` is never retried: after EINTR the
/// descriptor is already released on Linux and may belong to someone else (close(2) NOTES).
/// The one place that makes system calls (scripts/check-layers.py): the portable part (POSIX,
/// Linux and macOS) here, and what only Linux has (sockets with Linux's flags, epoll, eventfd,
/// inotify, accept4, renameat2) in `Linux/`, built on Linux alone.
package enum Posix {
    /// A call that returns -1 and sets errno on failure: its result (a descriptor, a count,
    /// 0), EINTR retried, any other errno thrown. Inlinable, so that each caller's closure is
    /// folded into it, in other targets too: the loop's reads and sends go through here.
    @inlinable
    package static func check<Result: BinaryInteger>(
        _ call: String, path: String? = nil, _ body: () -> Result
    ) throws(SystemError) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code == EINTR { continue }
            throw failure(call, code, path: path)
        }
    }

    @inlinable
    package static func checkNonBlocking(_ call: String, _ body: () -> Int) throws(SystemError) -> IOResult<Int> {
        while true {
            let result = body()
            if result >= 0 { return .processed(result) }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            throw failure(call, code, path: nil)
        }
    }

    /// The error for `code`. EBADF (a descriptor not open, or not open for this) and EFAULT
    /// (a bad pointer) are bugs, not conditions: carrying on could act on a descriptor that
    /// has since been given to another connection or file, so the process stops, as
    /// swift-nio's `System.swift` does.
    @usableFromInline @inline(never)
    package static func failure(_ call: String, _ code: Int32, path: String?) -> SystemError {
        if code == EBADF || code == EFAULT {
            preconditionFailure("\(call) failed with \(code == EBADF ? "EBADF" : "EFAULT"): a bug in the program")
        }
        return SystemError(call, errno: code, path: path)
    }

    /// close(2), never retried (above). Its other errors are not the caller's to act on: the
    /// descriptor is released whatever it returns, and a written file's durability is
    /// fsync(2)'s to report, before the close.
    package static func close(_ fd: Int32) {
        if closeDescriptor(fd) != 0 && errno == EBADF { _ = failure("close", EBADF, path: nil) }
    }
}

/// close(2) under another name: inside `Posix`, `close` is the wrapper itself.
private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }
