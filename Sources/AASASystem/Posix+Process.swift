#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Signals, limits and the standard streams: the process-wide calls of start-up and of the
/// main thread.
extension Posix {
    /// signal(2) with SIG_IGN.
    package static func ignore(signal: Int32) throws(SystemError) {
        // SIG_ERR is the handler -1 (signal(2)); C function pointers compare by address.
        let previous = Posix.setHandler(signal, SIG_IGN).map { unsafeBitCast($0, to: Int.self) }
        if previous == -1 { throw failure("signal", errno, path: nil) }
    }

    /// Blocks `signals` in the calling thread (and the threads it starts later), so that
    /// only `waitForSignal` sees them (pthread_sigmask(3), which returns its error).
    package static func block(signals: [Int32]) throws(SystemError) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        let code = pthread_sigmask(SIG_BLOCK, &set, nil)
        if code != 0 { throw failure("pthread_sigmask", code, path: nil) }
        return set
    }

    /// The next of the blocked `signals` (sigwait(3), which returns its error; EINTR is
    /// waited through).
    package static func waitForSignal(in signals: sigset_t) throws(SystemError) -> Int32 {
        var set = signals
        var received: Int32 = 0
        while true {
            let code = sigwait(&set, &received)
            if code == 0 { return received }
            if code != EINTR { throw failure("sigwait", code, path: nil) }
        }
    }

    /// kill(2).
    package static func send(signal: Int32, to process: pid_t) throws(SystemError) {
        _ = try check("kill") { kill(process, signal) }
    }

    /// Raises the soft limit on open descriptors to the hard one (getrlimit(2)).
    package static func raiseDescriptorLimit() throws(SystemError) {
        var limit = try descriptorLimits()
        guard limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = try check("setrlimit") { setrlimit(descriptorResource, &limit) }
    }

    /// The soft limit on open descriptors (getrlimit(2)), at most `Int.max`.
    package static func descriptorLimit() throws(SystemError) -> Int {
        // RLIM_INFINITY is all ones: clamped to Int.max.
        Int(clamping: try descriptorLimits().rlim_cur)
    }

    /// RLIMIT_NOFILE's soft and hard limits (getrlimit(2)).
    private static func descriptorLimits() throws(SystemError) -> rlimit {
        var limit = rlimit()
        _ = try check("getrlimit") { getrlimit(descriptorResource, &limit) }
        return limit
    }

    #if canImport(Glibc)
        private static let descriptorResource = Int32(RLIMIT_NOFILE.rawValue)
    #else
        private static let descriptorResource = RLIMIT_NOFILE
    #endif

    /// The lowest descriptor not open (open(2) takes the lowest free one): how many are open
    /// when none has been closed in between.
    package static func lowestFreeDescriptor() throws(SystemError) -> Int {
        let fd = try Self.open("/dev/null", O_RDONLY | O_CLOEXEC)
        Self.close(fd)
        return Int(fd)
    }

    /// Whether the real user may read `path` (access(2)): false on EACCES, an error for
    /// anything else (a missing file is the caller's to report).
    package static func mayRead(_ path: String) throws(SystemError) -> Bool {
        if access(path, R_OK) == 0 { return true }
        let code = errno
        if code == EACCES { return false }
        throw failure("access", code, path: path)
    }

    /// Adds O_NONBLOCK to a descriptor's status flags (fcntl(2)).
    package static func setNonBlocking(_ fd: Int32) throws(SystemError) {
        let flags = try check("fcntl") { fcntl(fd, F_GETFL) }
        _ = try check("fcntl") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// The file type (`S_IFIFO`, `S_IFSOCK` …) of a standard stream, or nil when it is
    /// closed. Unlike elsewhere, EBADF here is a condition, not a bug: the operator may
    /// start the server with a standard stream closed.
    package static func standardStreamType(_ fd: Int32) -> mode_t? {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    /// write(2) to a standard stream: the count, `.wouldBlock`, or nil when the stream is
    /// gone (closed, a reader that left, a full disk). EBADF is a condition here, as for
    /// `standardStreamType`.
    package static func writeStandardStream(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> IOResult<Int>? {
        while true {
            let written = writeDescriptor(fd, buffer.baseAddress, buffer.count)
            if written >= 0 { return .processed(written) }
            let code = errno
            if code == EINTR { continue }
            return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : nil
        }
    }

    private static func setHandler(_ signal: Int32, _ handler: sighandler_t?) -> sighandler_t? {
        #if canImport(Glibc)
            Glibc.signal(signal, handler)
        #else
            Darwin.signal(signal, handler)
        #endif
    }
}

/// write(2) under another name: inside `Posix`, `write` is the wrapper itself.
private func writeDescriptor(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, bytes, count)
}
