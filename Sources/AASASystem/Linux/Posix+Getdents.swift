#if os(Linux)
    import CSystemShims
    @preconcurrency import Glibc

    /// Listing a folder with getdents64(2), which glibc wraps only for GNU programs.
    extension Posix {
        /// getdents64(2) until it returns 0, straight into a buffer on the stack: no DIR stream,
        /// no duplicate descriptor and none of fdopendir(3)'s fstat and fcntl calls (five system
        /// calls more per folder, 100,000 site folders at a start-up, and as many certificates).
        static func listed(_ fd: Int32) throws(SystemError) -> [FolderEntry] {
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
    }
#endif
