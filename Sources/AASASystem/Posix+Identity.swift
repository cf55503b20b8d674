#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who the process is and what the machine has: user and group IDs and their names, the
/// process ID, processors and the page size. Portable (POSIX).
extension Posix {
    /// getuid(2): the real user the process runs as.
    package static func userID() -> uid_t { getuid() }

    /// getgid(2): the real group.
    package static func groupID() -> gid_t { getgid() }

    /// geteuid(2): the user whose rights the process's file accesses have.
    package static func effectiveUserID() -> uid_t { geteuid() }

    /// Whether `group` is the effective group (getegid(2)) or one of the supplementary groups
    /// (getgroups(2)).
    package static func isOwnGroup(_ group: gid_t) -> Bool {
        if getegid() == group { return true }
        let count = getgroups(0, nil)
        guard count > 0 else { return false }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let filled = getgroups(count, &groups)
        return groups.prefix(Int(max(filled, 0))).contains(group)
    }

    /// getpid(2).
    package static func processID() -> pid_t { getpid() }

    /// The user's name from the password database (getpwuid(3)), nil when it has none.
    package static func userName(_ uid: uid_t) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// The group's name (getgrgid(3)), nil when the database has none.
    package static func groupName(_ gid: gid_t) -> String? {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return nil }
        return String(cString: name)
    }

    /// The processors online (sysconf(3) `_SC_NPROCESSORS_ONLN`, which reads the system's
    /// list), at least 1.
    package static func onlineProcessors() -> Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The size of a memory page (sysconf(3) `_SC_PAGESIZE`).
    package static func pageSize() -> Int { Int(sysconf(Int32(_SC_PAGESIZE))) }

    /// Sleeps the calling thread (usleep(3), nanosleep(2)); a signal may end it early, which
    /// every caller's loop checks again anyway.
    package static func pause(microseconds: UInt32) {
        _ = usleep(microseconds)
    }
}
