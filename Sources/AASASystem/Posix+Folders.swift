#if canImport(Glibc)
    @preconcurrency import Glibc
    import CSystemShims
#elseif canImport(Darwin)
    import Darwin
    /// What opendir(3) returns: `DIR` is a complete type on macOS.
    private typealias FolderStream = UnsafeMutablePointer<DIR>
#endif

/// Listing folders: getdents(2) on Linux, readdir(3) elsewhere.
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
            // Rewound, for a folder listed before; getdents(2) reads from the descriptor's offset.
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

    #if os(Linux)
        /// getdents64(2) until it returns 0, straight into a buffer on the stack: no DIR stream,
        /// no duplicate descriptor and none of fdopendir(3)'s fstat, fcntl and lseek calls, which
        /// at 100,000 site folders were six system calls each of a start-up's listing.
        private static func listed(_ fd: Int32) throws(SystemError) -> [FolderEntry] {
            var entries: [FolderEntry] = []
            var failed: SystemError?
            withUnsafeTemporaryAllocation(byteCount: 8192, alignment: 8) { buffer in
                while true {
                    let count: Int
                    do throws(SystemError) {
                        count = try check("getdents64") {
                            CSystemShims_getdents64(fd, buffer.baseAddress, buffer.count)
                        }
                    } catch {
                        failed = error
                        return
                    }
                    if count == 0 { return }
                    append(UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: &entries)
                }
            }
            if let failed { throw failed }
            return entries
        }

        /// The entries of one getdents64(2) answer: struct linux_dirent64 records (d_ino and
        /// d_off, 8 bytes each, d_reclen, 2, d_type, 1, then d_name, NUL-terminated).
        private static func append(_ records: UnsafeRawBufferPointer, to entries: inout [FolderEntry]) {
            let nameOffset = 19
            var offset = 0
            while offset + nameOffset < records.count {
                let length = Int(records.loadUnaligned(fromByteOffset: offset + 16, as: UInt16.self))
                guard length > nameOffset, offset + length <= records.count else { return }
                let type = records[offset + 18]
                let name = records[(offset + nameOffset)..<(offset + length)].prefix { $0 != 0 }
                offset += length
                let dot = UInt8(ascii: ".")
                if name.first == dot && (name.count == 1 || (name.count == 2 && name.last == dot)) { continue }
                entries.append(FolderEntry(name: String(decoding: name, as: UTF8.self), type: type))
            }
        }
    #else
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
