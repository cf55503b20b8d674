#if os(Linux)
    import CSystemShims
    @preconcurrency import Glibc

    /// inotify(7), which only Linux has.
    extension Posix {
        /// inotify_init1(2), non-blocking and close-on-exec.
        package static func inotify() throws(SystemError) -> Int32 {
            try check("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC)) }
        }

        /// inotify_add_watch(2) of `path` for `mask`; the watch descriptor.
        package static func addWatch(_ fd: Int32, _ path: String, mask: UInt32) throws(SystemError) -> Int32 {
            try check("inotify_add_watch", path: path) { inotify_add_watch(fd, path, mask) }
        }

        /// inotify_rm_watch(2): a watch no longer wanted (a swapped sites root's old target).
        package static func removeWatch(_ fd: Int32, _ wd: Int32) {
            _ = inotify_rm_watch(fd, wd)
        }
    }
#endif
