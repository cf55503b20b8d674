#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files and folders: open(2), openat(2), fstat(2), stat(2), mkdir(2), rename(2), unlink(2),
/// fsync(2), fchmod(2), readlinkat(2), dup(2) and flock(2), each failing with a `SystemError`
/// that names the call and the path. Every descriptor is opened close-on-exec.
extension Posix {
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemError) -> Int32 {
        try check("open", path: path) { openFile(path, flags | O_CLOEXEC, mode) }
    }

    /// openat(2): `name` relative to the folder open on `folder`.
    package static func openAt(_ folder: Int32, _ name: String, _ flags: Int32) throws(SystemError) -> Int32 {
        try check("openat", path: name) { openFileAt(folder, name, flags | O_CLOEXEC) }
    }

    /// fstat(2) of the file open on `fd`.
    package static func status(_ fd: Int32) throws(SystemError) -> stat {
        var info = stat()
        _ = try check("fstat") { statusOfDescriptor(fd, &info) }
        return info
    }

    /// stat(2) of `path`, or lstat(2) (the link itself) when `followingLinks` is false.
    package static func status(_ path: String, followingLinks: Bool) throws(SystemError) -> stat {
        var info = stat()
        _ = try check(followingLinks ? "stat" : "lstat", path: path) {
            followingLinks ? statusOfPath(path, &info) : statusOfLink(path, &info)
        }
        return info
    }

    package static func makeFolder(_ path: String, mode: mode_t) throws(SystemError) {
        _ = try check("mkdir", path: path) { mkdir(path, mode) }
    }

    package static func rename(_ source: String, to target: String) throws(SystemError) {
        _ = try check("rename", path: target) { renamePath(source, target) }
    }

    package static func unlink(_ path: String) throws(SystemError) {
        _ = try check("unlink", path: path) { unlinkPath(path) }
    }

    /// fsync(2): a failure means the bytes may not be on disk (fsync(2), ERRORS).
    package static func fsync(_ fd: Int32, path: String? = nil) throws(SystemError) {
        _ = try check("fsync", path: path) { syncDescriptor(fd) }
    }

    package static func changeMode(_ fd: Int32, _ mode: mode_t) throws(SystemError) {
        _ = try check("fchmod") { fchmod(fd, mode) }
    }

    package static func duplicate(_ fd: Int32) throws(SystemError) -> Int32 {
        try check("fcntl") { fcntl(fd, F_DUPFD_CLOEXEC, 0) }
    }

    /// flock(2) without waiting: false while another descriptor holds the lock.
    package static func tryLockExclusive(_ fd: Int32) throws(SystemError) -> Bool {
        let result = try checkNonBlocking("flock") { Int(flock(fd, LOCK_EX | LOCK_NB)) }
        if case .processed = result { return true }
        return false
    }

    /// The target of the link `name` in the folder open on `folder` (readlinkat(2)); EINVAL
    /// when it is not a link. A target that fills the buffer may be cut short (readlink(2)),
    /// so it is ENAMETOOLONG.
    package static func linkTarget(_ name: String, in folder: Int32) throws(SystemError) -> [UInt8] {
        let capacity = Int(PATH_MAX)
        var buffer = [CChar](repeating: 0, count: capacity)
        let count = try check("readlinkat", path: name) { readlinkat(folder, name, &buffer, capacity) }
        guard count < capacity else { throw SystemError("readlinkat", errno: ENAMETOOLONG, path: name) }
        return buffer[..<count].map { UInt8(bitPattern: $0) }
    }
}

// The calls under other names: inside `Posix` the plain names are its wrappers.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func openFileAt(_ folder: Int32, _ name: String, _ flags: Int32) -> Int32 { openat(folder, name, flags) }
private func statusOfDescriptor(_ fd: Int32, _ info: inout stat) -> Int32 { fstat(fd, &info) }
private func statusOfPath(_ path: String, _ info: inout stat) -> Int32 { stat(path, &info) }
private func statusOfLink(_ path: String, _ info: inout stat) -> Int32 { lstat(path, &info) }
private func renamePath(_ source: String, _ target: String) -> Int32 { rename(source, target) }
private func unlinkPath(_ path: String) -> Int32 { unlink(path) }
private func syncDescriptor(_ fd: Int32) -> Int32 { fsync(fd) }
