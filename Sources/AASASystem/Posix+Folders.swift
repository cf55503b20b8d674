#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    import Darwin
    /// What opendir(3) returns: `DIR` is a complete type on macOS.
    private typealias FolderStream = UnsafeMutablePointer<DIR>
#endif

/// Listing folders: getdents64(2) on Linux (`Linux/Posix+Getdents.swift`), readdir(3) elsewhere.
extension Posix {
    /// The entries of the folder at `path`, without `.` and `..`.
    package static func entries(atPath path: String) throws(SystemError) -> [FolderEntry] {
        #if os(Linux)
            let fd = try open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK)
            defer { close(fd) }
            return try listed(fd)
        #else
            guard let stream = opendir(path) else { throw failure("opendir", errno, path: path) }
            defer { closedir(stream) }
            return try entries(of: stream)
        #endif
    }

    /// The entries of the folder open on `fd`, without `.` and `..`, read from its start.
    package static func entries(ofFolder fd: Int32) throws(SystemError) -> [FolderEntry] {
        #if os(Linux)
            // Rewound, for a folder listed before: getdents64(2) reads from the offset.
            _ = try check("lseek") { Int32(truncatingIfNeeded: lseek(fd, 0, SEEK_SET)) }
            return try listed(fd)
        #else
            // fdopendir(3) takes over the descriptor it is given: a duplicate, rewound, since a
            // duplicate shares the offset.
            let copy = try duplicate(fd)
            guard let stream = fdopendir(copy) else {
                let code = errno
                close(copy)
                throw failure("fdopendir", code, path: nil)
            }
            defer { closedir(stream) }
            rewinddir(stream)
            return try entries(of: stream)
        #endif
    }

    #if !os(Linux)
        /// readdir(3) returns NULL at the end and on an error alike; only errno, cleared before
        /// the call, tells them apart (readdir(3), RETURN VALUE).
        private static func entries(of stream: FolderStream) throws(SystemError) -> [FolderEntry] {
            var entries: [FolderEntry] = []
            while true {
                errno = 0
                guard let entry = readdir(stream) else {
                    let code = errno
                    if code != 0 { throw failure("readdir", code, path: nil) }
                    return entries
                }
                let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                    field.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: field.pointee)) {
                        String(cString: $0)
                    }
                }
                guard name != "." && name != ".." else { continue }
                entries.append(FolderEntry(name: name, type: entry.pointee.d_type))
            }
        }
    #endif
}
