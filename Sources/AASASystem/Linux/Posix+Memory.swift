#if os(Linux)
    import CSystemShims
    @preconcurrency import Glibc

    /// What only Linux's C library has besides sockets, epoll, eventfd and inotify.
    extension Posix {
        /// renameat2(2) with RENAME_EXCHANGE: `path` and `other` swap names in one step, so a
        /// reader sees the one folder or the other, never neither (GNU-only, wrapped in CSystemShims).
        package static func exchange(_ path: String, with other: String) throws(SystemError) {
            _ = try check("renameat2", path: other) { CSystemShims_renameExchange(path, other) }
        }

        /// malloc_trim(3): the allocator gives freed memory at the top of its heaps back to the
        /// system (madvise(2)), after a load or a burst of connections freed much at once.
        package static func returnFreeMemory() {
            _ = malloc_trim(0)
        }
    }
#endif
