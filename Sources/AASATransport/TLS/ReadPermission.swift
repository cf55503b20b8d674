import AASASystem
@preconcurrency import Glibc

/// Why this process cannot read a file it must, in the operator's terms: the user the server
/// runs as and the owner and mode found, so the fix (chown, chmod, or another user) is plain.
package enum ReadPermission {
    /// Nil when the file can be read (or does not exist: the caller reports that); else the reason,
    /// from access(2) with the real IDs the server runs under and stat(2)'s owner and mode.
    package static func problem(reading path: String, what: String) -> String? {
        guard (try? Posix.mayRead(path)) == false else { return nil }
        let found =
            (try? Posix.status(path, followingLinks: true)).map { status in
                "it is owned by \(userName(status.st_uid)):\(groupName(status.st_gid)) with mode "
                    + String(status.st_mode & 0o7777, radix: 8).leftPadded(to: 4)
            } ?? "its folder cannot be searched"
        let user = userName(Posix.userID())
        return "cannot read \(what) \(path): permission denied for the user the server runs as, \(user) "
            + "(uid \(Posix.userID()), gid \(Posix.groupID())); \(found); make it readable by \(user) (chown it, or give its "
            + "group read access with chmod 640), or run the server as its owner"
    }

    /// The user's name from the password database (getpwuid(3)), else the number.
    static func userName(_ uid: uid_t) -> String {
        Posix.userName(uid) ?? "\(uid)"
    }

    /// The group's name (getgrgid(3)), else the number.
    static func groupName(_ gid: gid_t) -> String {
        Posix.groupName(gid) ?? "\(gid)"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
