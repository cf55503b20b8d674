#if canImport(Glibc)
    @preconcurrency import Glibc
    /// What opendir(3) returns: an incomplete type on Linux.
    private typealias FolderStream = OpaquePointer
#elseif canImport(Darwin)
    import Darwin
    /// What opendir(3) returns: `DIR` is a complete type on macOS.
    private typealias FolderStream = UnsafeMutablePointer<DIR>
#endif

/// Listing folders with readdir(3).
extension Posix {
    /// The entries of the folder at `path`, without `.` and `..`.
    package static func entries(atPath path: String) throws(SystemError) -> [FolderEntry] {
        guard let stream = opendir(path) else { throw failure("opendir", errno, path: path) }
        defer { closedir(stream) }
        return try entries(of: stream)
    }

    /// The entries of the folder open on `fd`, without `.` and `..`: fdopendir(3) of a
    /// duplicate, which it takes over, rewound since a duplicate shares the offset.
    package static func entries(ofFolder fd: Int32) throws(SystemError) -> [FolderEntry] {
        let copy = try duplicate(fd)
        guard let stream = fdopendir(copy) else {
            let code = errno
            close(copy)
            throw failure("fdopendir", code, path: nil)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        return try entries(of: stream)
    }

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
}
